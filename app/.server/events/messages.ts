/**
 * The e-mails about an event registration (issue 45): the confirmation (a
 * place, or the waiting list), the promotion from the waiting list, and the
 * reminders 24 hours and 1 hour before. Each carries the event's details,
 * the calendar file (a place only), "Add to Google Calendar" / "Add to
 * Outlook.com" links and the cancel link (every e-mail but the event's
 * cancellation; the same signed link in each: events/cancel-link.ts); for a
 * webinar, the joining link goes in the e-mail only (and in the attached
 * calendar file), never on the public page. Sent through the one mail
 * layer; a body that holds a cancel link is `sensitive` (not kept once
 * delivered).
 */
import { FIRM, fullAddress } from "~/config/firm";
import {
  durationText,
  eventDateText,
  eventPath,
  eventTimeText,
  FORMAT_LABELS,
  googleCalendarUrl,
  locationText,
  outlookCalendarUrl,
  type EventFormat,
} from "~/lib/events";
import { escapeHtml } from "~/lib/html";
import type { MailMessage } from "../mail/mail";
import type { Event } from "../db/events";
import { absoluteUrl } from "../http/site-url";
import { getEnv } from "../env";
import { eventCalendar } from "./calendar";
import { cancelToken } from "./cancel-link";

export type EventMailKind = "registered" | "waiting" | "promoted" | "reminder-24h" | "reminder-1h" | "moved" | "cancelled";

export function cancelUrl(token: string): string {
  return absoluteUrl(`/event/cancel/${token}`);
}

const INTRO: Record<EventMailKind, (title: string) => { subject: string; line: string }> = {
  registered: (t) => ({ subject: `Registration confirmed: ${t}`, line: "Your place is confirmed." }),
  waiting: (t) => ({
    subject: `Waiting list: ${t}`,
    line: "The event is full, so you are on the waiting list. If a place becomes free, we will e-mail you at once.",
  }),
  promoted: (t) => ({
    subject: `A place is now yours: ${t}`,
    line: "A place became free and it is now yours: your registration is confirmed.",
  }),
  "reminder-24h": (t) => ({ subject: `Tomorrow: ${t}`, line: "A reminder: the event starts in 24 hours." }),
  "reminder-1h": (t) => ({ subject: `Starting in one hour: ${t}`, line: "A reminder: the event starts in one hour." }),
  moved: (t) => ({ subject: `New time: ${t}`, line: "" }),
  cancelled: (t) => ({
    subject: `Cancelled: ${t}`,
    line: "We are sorry: the event is cancelled. There is nothing you need to do; the attached calendar file removes it from your calendar.",
  }),
};

/** "The event has moved to a new time (it was to start …)": without the final full stop. */
function movedText(event: Event): string {
  const was = event.previous_starts_at;
  return `The event has moved to a new time${was ? ` (it was to start ${eventDateText(was)}, ${eventTimeText(was)})` : ""}`;
}

/** A person with a place gets the calendar file and the calendar links (not someone waiting). */
const hasPlaceFor = (kind: EventMailKind, status: string | undefined) => kind !== "waiting" && status !== "waiting";

/**
 * The message for one registrant (`to`: the registration). Every kind but
 * the event's cancellation carries the registration's cancel link, the same
 * in each e-mail. A move or a cancellation goes to those waiting too
 * (`to.status`), without a calendar file (they have no place, so no entry
 * to update).
 */
export function eventMail(
  kind: EventMailKind,
  event: Event,
  to: { id: number; cancel_nonce: string; name: string; email: string; status?: string },
): MailMessage {
  const cancelled = kind === "cancelled";
  const token = cancelled ? null : cancelToken(to);
  const hasPlace = hasPlaceFor(kind, to.status);
  const { subject, line: intro } = INTRO[kind](event.title);
  const line =
    kind === "moved"
      ? `${movedText(event)}. ${hasPlace ? "The new time is below; the attached calendar file updates the entry in your calendar." : "You are still on the waiting list."}`
      : cancelled && !hasPlace
        ? "We are sorry: the event is cancelled, so the waiting list is closed."
        : intro;
  const page = absoluteUrl(eventPath(event.slug));
  const where = locationText(event);
  const join = hasPlace && !cancelled && event.format !== "in-person" && event.webinar_url ? event.webinar_url : "";
  const details = [event.summary, join ? `Join the webinar: ${join}` : "", page].filter(Boolean).join("\n\n");
  const rows: [string, string][] = [
    ["When", `${eventDateText(event.starts_at)}, ${eventTimeText(event.starts_at)} (${durationText(event.starts_at, event.ends_at)})`],
    ["Format", FORMAT_LABELS[event.format as EventFormat] ?? event.format],
    ["Where", where],
  ];
  const calendarInput = { title: event.title, starts_at: event.starts_at, ends_at: event.ends_at, details, location: where };
  const links: [string, string][] = [
    ["Event page", page],
    ...(hasPlace && !cancelled
      ? ([
          ["Add to Google Calendar", googleCalendarUrl(calendarInput)],
          ["Add to Outlook.com", outlookCalendarUrl(calendarInput)],
        ] as [string, string][])
      : []),
    ...(token ? ([["Cancel my registration", cancelUrl(token)]] as [string, string][]) : []),
  ];
  const identification = `Sent by ${FIRM.name}, ${fullAddress()}. Telephone ${FIRM.phone}. E-mail ${FIRM.email}. Web ${getEnv().publicUrl}.`;
  const text = [
    `Dear ${to.name},`,
    "",
    line,
    "",
    event.title,
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...(join ? ["", `Join the webinar: ${join}`] : []),
    "",
    ...links.map(([k, v]) => `${k}: ${v}`),
    ...(hasPlace ? ["", "The calendar file (event.ics) is attached."] : []),
    "",
    "--",
    "You receive this message because you registered for this event on our website.",
    identification,
  ].join("\n");
  const html = `<!doctype html><html lang="en"><body style="font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#13233a;background:#faf8f4;margin:0;padding:24px">
<div style="max-width:600px;margin:0 auto;background:#fff;border:1px solid #d9d4c7;padding:24px 32px">
<p style="font-family:Georgia,serif;font-size:20px;font-weight:600">${escapeHtml(FIRM.name)}</p>
<p>Dear ${escapeHtml(to.name)},</p>
<p>${escapeHtml(line)}</p>
<h1 style="font-family:Georgia,serif;font-size:24px">${escapeHtml(event.title)}</h1>
<table role="presentation">${rows.map(([k, v]) => `<tr><th scope="row" style="text-align:left;padding:4px 12px 4px 0;vertical-align:top">${escapeHtml(k)}</th><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`).join("")}</table>
${join ? `<p><a href="${escapeHtml(join)}" style="color:#1d5c63">Join the webinar</a></p>` : ""}
<ul>${links.map(([k, v]) => `<li><a href="${escapeHtml(v)}" style="color:#1d5c63">${escapeHtml(k)}</a></li>`).join("")}</ul>
${hasPlace ? "<p>The calendar file (event.ics) is attached.</p>" : ""}
<hr style="border-color:#d9d4c7"><p style="font-size:13px;color:#4a5565">You receive this message because you registered for this event on our website. ${escapeHtml(identification)}</p>
</div></body></html>`;
  return {
    kind: `event-${kind}`,
    to: to.email,
    subject,
    text,
    html,
    sensitive: !!token,
    attachments: hasPlace
      ? [
          {
            filename: "event.ics",
            contentType: `text/calendar; charset=utf-8; method=${cancelled ? "CANCEL" : "PUBLISH"}`,
            content: eventCalendar(event, getEnv().publicUrl, { joinUrl: join || undefined }),
          },
        ]
      : [],
  };
}
