/**
 * Reading a contact card (vCard 3.0, RFC 2426) in tests: its lines with the
 * folded ones joined again, the framing every card must have, and the lines
 * of the demo's Eleanor Whitcombe that address books show.
 */
import { expect } from "vitest";

/** The card's lines, each folded line joined again (a CRLF followed by a space continues the line before). */
export const unfoldedLines = (card: string) => card.replace(/\r\n /g, "").split("\r\n");

/** vCard 3.0 from BEGIN to END, with CRLF line ends (no bare CR or LF) and every line at most 75 octets. */
export function expectVCard3Framing(card: string) {
  expect(card.startsWith("BEGIN:VCARD\r\nVERSION:3.0\r\n")).toBe(true);
  expect(card.endsWith("END:VCARD\r\n")).toBe(true);
  expect(card.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  for (const line of card.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
}

/** Eleanor Whitcombe's name, title, firm, e-mail and work phone with her extension, as her card writes them. */
export const ELEANOR_WHITCOMBE_LINES = [
  "FN:Eleanor Whitcombe",
  "N:Whitcombe;Eleanor;;;",
  "TITLE:Managing Partner",
  "ORG:Harrow Kline LLP",
  "EMAIL;TYPE=INTERNET,WORK:ewhitcombe@harrowkline.example",
  "TEL;TYPE=WORK,VOICE:+1 416-555-0142 ext. 101",
];

/** Each of `expected` is a whole line of the card (once unfolded). */
export function expectCardLines(card: string, expected: string[]) {
  const lines = unfoldedLines(card);
  for (const line of expected) expect(lines).toContain(line);
}
