/**
 * A certificate of attendance (issue 45): one Letter page, made with pdfkit
 * like the lawyers' PDF bios (content/bio-pdf.ts: the same embedded fonts,
 * tagged, one column read top to bottom), holding what a lawyer keeps for a
 * Law Society of Ontario CPD audit: the attendee's name, the program, its
 * date and time in Toronto time, its format and place, the CPD hours by kind
 * (Professionalism hours only once their accreditation is recorded, or the
 * firm is an accredited provider, as on the public page), the accreditation
 * when recorded, and the provider (the firm, its address and contacts).
 *
 * E-mailed to each attendee once (db/event-registrations.ts
 * `claimCertificates`), and downloadable per attendee on the registrations
 * screen.
 */
import { FIRM, fullAddress } from "~/config/firm";
import {
  accreditationText,
  cpdHours,
  durationText,
  eventDateText,
  eventTimeText,
  FORMAT_LABELS,
  venueText,
  professionalismAccredited,
  type EventFormat,
} from "~/lib/events";
import { escapeHtml } from "~/lib/html";
import { BRASS, brassRule, INK, letterDocument, MUTED, PAGE } from "../content/pdf-document";
import type { EventRow } from "../db/schema";
import { getEnv } from "../env";
import type { MailMessage } from "../mail/mail";

type CertificateEvent = Pick<
  EventRow,
  | "id"
  | "title"
  | "starts_at"
  | "ends_at"
  | "format"
  | "venue_name"
  | "venue_street"
  | "venue_city"
  | "venue_region"
  | "venue_postal_code"
  | "cpd_substantive_minutes"
  | "cpd_professionalism_minutes"
  | "accreditation_number"
  | "accreditation_date"
>;

/** "Substantive: 0.5 hours" lines: the kinds the program claims (Professionalism only when it may be claimed). */
export function certificateHours(event: CertificateEvent, accreditedProvider: boolean = FIRM.lsoAccreditedProvider): string[] {
  const professionalism = professionalismAccredited(event, accreditedProvider) ? event.cpd_professionalism_minutes : 0;
  const hours = (minutes: number) => `${cpdHours(minutes)} ${minutes === 60 ? "hour" : "hours"}`;
  return [
    event.cpd_substantive_minutes > 0 ? `Substantive: ${hours(event.cpd_substantive_minutes)}` : "",
    professionalism > 0 ? `Professionalism: ${hours(professionalism)}` : "",
  ].filter(Boolean);
}

/** "Thursday, October 22, 2026, 12:00 p.m. to 1:30 p.m. ET (1 hour 30 minutes)": Toronto time, the zone named. */
export function certificateWhen(event: Pick<EventRow, "starts_at" | "ends_at">): string {
  return `${eventDateText(event.starts_at)}, ${eventTimeText(event.starts_at).replace(/ ET$/, "")} to ${eventTimeText(event.ends_at)} (${durationText(event.starts_at, event.ends_at)})`;
}

/** Where the program took place, as a record (not the invitation's wording about the joining link). */
export function certificatePlace(event: CertificateEvent): string {
  if (event.format === "webinar") return "Webinar";
  const venue = venueText(event);
  return event.format === "hybrid" ? `${venue} (and by webinar)` : venue;
}

/** The file's name: certificate-{event id}-{attendee's name, plain}.pdf. */
export function certificateFilename(event: Pick<EventRow, "id">, name: string): string {
  const plain = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `certificate-${event.id}${plain ? `-${plain}` : ""}.pdf`;
}

const MARGIN = 64;
const WIDTH = PAGE.width - 2 * MARGIN;

/** The certificate's bytes for one attendee. */
export async function renderCertificatePdf(event: CertificateEvent, attendee: { name: string }, issuedAt = new Date()): Promise<Buffer> {
  const { doc, root, finish } = letterDocument(MARGIN, {
    Title: `Certificate of attendance: ${event.title}`,
    Subject: `Certificate of attendance of ${attendee.name}`,
    Keywords: "certificate of attendance, CPD, Law Society of Ontario",
  });

  let y = MARGIN;
  const text = (tag: "H1" | "H2" | "P", value: string, font: string, size: number, color: string, gap: number, height?: number) => {
    doc.font(font).fontSize(size).fillColor(color);
    const top = y;
    root.add(
      doc.struct(tag, {}, () => doc.text(value, MARGIN, top, { width: WIDTH, lineGap: 2, ...(height ? { height, ellipsis: true } : {}) })),
    );
    y = doc.y + gap;
  };
  const rule = (width: number) => {
    brassRule(doc, MARGIN, y, width);
    y += 18;
  };

  text("P", FIRM.name, "serif", 16, INK, 18);
  rule(1.25);
  text("H1", "Certificate of attendance", "serif", 28, INK, 18);
  text("P", "This certifies that", "sans", 11, MUTED, 4);
  text("P", attendee.name, "serif", 22, INK, 6, 60);
  text("P", "attended the following program.", "sans", 11, MUTED, 22);

  const hours = certificateHours(event);
  const rows: [string, string][] = [
    ["Program", event.title],
    ["Date and time", certificateWhen(event)],
    ["Format", FORMAT_LABELS[event.format as EventFormat] ?? event.format],
    ["Location", certificatePlace(event)],
    ["CPD hours", hours.length ? hours.join("\n") : "None claimed"],
  ];
  const accreditation = accreditationText(event);
  if (accreditation && hours.some((h) => h.startsWith("Professionalism"))) rows.push(["Accreditation", accreditation]);
  for (const [label, value] of rows) {
    text("H2", label.toUpperCase(), "sansBold", 8.5, BRASS, 3);
    text("P", value, "sans", 11, INK, 12, 64);
  }

  y += 6;
  rule(0.5);
  text("H2", "PROVIDER", "sansBold", 8.5, BRASS, 3);
  text(
    "P",
    [
      FIRM.name,
      fullAddress(),
      `Telephone ${FIRM.phone}  ·  ${FIRM.email}  ·  ${getEnv().publicUrl}`,
      ...(FIRM.lsoAccreditedProvider ? ["Law Society of Ontario accredited CPD provider"] : []),
    ].join("\n"),
    "sans",
    10,
    INK,
    14,
  );
  text(
    "P",
    `Issued ${eventDateText(issuedAt)}. Keep this certificate with your CPD records: the Law Society of Ontario may ask for it in an audit. Report your CPD hours to the Law Society yourself.`,
    "sans",
    9,
    MUTED,
    0,
  );

  return finish();
}

/** The e-mail carrying one attendee's certificate (a PDF attachment, base64). */
export async function certificateMail(event: CertificateEvent, attendee: { name: string; email: string }): Promise<MailMessage> {
  const pdf = await renderCertificatePdf(event, attendee);
  const subject = `Certificate of attendance: ${event.title}`;
  const identification = `Sent by ${FIRM.name}, ${fullAddress()}. Telephone ${FIRM.phone}. E-mail ${FIRM.email}. Web ${getEnv().publicUrl}.`;
  const lines = [
    `Dear ${attendee.name},`,
    "",
    `Thank you for attending ${event.title} on ${eventDateText(event.starts_at)}.`,
    "Your certificate of attendance is attached (PDF). Keep it with your CPD records: the Law Society of Ontario may ask for it in an audit.",
  ];
  const text = [...lines, "", "--", "You receive this message because you attended this event.", identification].join("\n");
  const html = `<!doctype html><html lang="en"><body style="font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#13233a;background:#faf8f4;margin:0;padding:24px">
<div style="max-width:600px;margin:0 auto;background:#fff;border:1px solid #d9d4c7;padding:24px 32px">
<p style="font-family:Georgia,serif;font-size:20px;font-weight:600">${escapeHtml(FIRM.name)}</p>
${lines
  .filter(Boolean)
  .map((l) => `<p>${escapeHtml(l)}</p>`)
  .join("\n")}
<hr style="border-color:#d9d4c7"><p style="font-size:13px;color:#4a5565">You receive this message because you attended this event. ${escapeHtml(identification)}</p>
</div></body></html>`;
  return {
    kind: "event-certificate",
    to: attendee.email,
    subject,
    text,
    html,
    attachments: [
      {
        filename: certificateFilename(event, attendee.name),
        contentType: "application/pdf",
        content: pdf.toString("base64"),
        encoding: "base64",
      },
    ],
  };
}
