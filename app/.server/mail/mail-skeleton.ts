/**
 * A mailing's message compiled once, filled in per recipient (issue 31,
 * decision 0024). nodemailer's MailComposer builds the MIME message once per
 * mailing — headers, boundaries, part headers, base64 bodies — with markers
 * where each recipient's address, Message-ID, links and bodies go; each
 * recipient's message is then that text with the markers replaced: composing
 * a whole MIME message per recipient costs the server's thread far more time
 * and garbage than filling the skeleton in.
 */
import MailComposer from "nodemailer/lib/mail-composer";

const TO_MARK = "recipient@mailing.invalid";
const MESSAGE_ID_MARK = "<message@mailing.invalid>";
// Not plain ASCII, so that MailComposer encodes the parts (base64, `textEncoding`) rather than sending them as 7bit.
const TEXT_MARK = "@@mailing-text-part·@@";
const HTML_MARK = "@@mailing-html-part·@@";

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** Base64 in lines of 76 characters (RFC 2045), as MailComposer writes it. */
function base64Lines(text: string): string {
  const encoded = base64(text);
  const lines: string[] = [];
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76));
  return lines.join("\r\n");
}

/** The compiled message, and the bodies (with their placeholders) that go into it. */
export type MailSkeleton = { raw: string; text: string; html: string };

/**
 * Compiles the message common to every recipient. `headers` are sent as
 * given (List-Unsubscribe and List-Unsubscribe-Post); they, like the bodies,
 * may hold placeholders that each recipient's `fill` replaces.
 */
export async function compileSkeleton(message: {
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}): Promise<MailSkeleton> {
  const composer = new MailComposer({
    from: message.from,
    to: TO_MARK,
    subject: message.subject,
    text: TEXT_MARK,
    html: HTML_MARK,
    messageId: MESSAGE_ID_MARK,
    textEncoding: "base64",
    headers: Object.fromEntries(Object.entries(message.headers).map(([name, value]) => [name, { prepared: true, value }])),
  });
  const raw = (await composer.compile().build()).toString("utf8");
  for (const mark of [TO_MARK, MESSAGE_ID_MARK, base64(TEXT_MARK), base64(HTML_MARK)]) {
    if (!raw.includes(mark)) throw new Error(`The mailing's compiled message has no place for ${mark}.`);
  }
  return { raw, text: message.text, html: message.html };
}

/** One recipient's message: the skeleton with their address, Message-ID, links (`fill`) and bodies. */
export function fillSkeleton(skeleton: MailSkeleton, recipient: { to: string; messageId: string; fill: (text: string) => string }): string {
  return recipient
    .fill(skeleton.raw)
    .replace(TO_MARK, () => recipient.to)
    .replace(MESSAGE_ID_MARK, () => recipient.messageId)
    .replace(base64(TEXT_MARK), () => base64Lines(recipient.fill(skeleton.text)))
    .replace(base64(HTML_MARK), () => base64Lines(recipient.fill(skeleton.html)));
}
