/** The e-mails of staff accounts (invitation, password reset), sent through the one mail layer (mail.ts). */
import { FIRM } from "~/config/firm";
import type { Status } from "~/lib/forms/messages";
import { getEnv } from "../env";
import { sendMail, type MailResult } from "../mail/mail";
import { ROLE_LABELS, type Role } from "./roles";
import { INVITATION_HOURS, RESET_HOURS } from "../db/staff-links";
import { escapeHtml } from "~/lib/html";

export function invitationLink(token: string): string {
  return `${getEnv().publicUrl}/admin/invitation/${token}`;
}

export function resetLink(token: string): string {
  return `${getEnv().publicUrl}/admin/reset-password/${token}`;
}

function html(paragraphs: string[], link: string, button: string): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n");
  return `<!doctype html><html lang="en"><body style="font-family:Arial,sans-serif;color:#14213d;line-height:1.5">
${body}
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#7a5c1e;color:#ffffff;padding:10px 16px;text-decoration:none;font-weight:bold">${escapeHtml(button)}</a></p>
<p>If the button does not work, copy this address into your browser:<br>${escapeHtml(link)}</p>
<p>${escapeHtml(FIRM.name)}</p>
</body></html>`;
}

export function sendInvitation(to: string, role: Role, token: string, invitedBy: string): Promise<MailResult> {
  const link = invitationLink(token);
  const lines = [
    `${invitedBy} has invited you to the staff dashboard of ${FIRM.name}'s website, as ${ROLE_LABELS[role].toLowerCase()}.`,
    `Open the link below to choose your password. The link works once, for ${INVITATION_HOURS} hours.`,
    "If you did not expect this invitation, you can ignore this e-mail.",
  ];
  return sendMail({
    to,
    subject: `Your invitation to the ${FIRM.name} staff dashboard`,
    text: `${lines.join("\n\n")}\n\n${link}\n\n${FIRM.name}\n`,
    html: html(lines, link, "Choose your password"),
    kind: "invitation",
    sensitive: true,
  });
}

export function sendPasswordReset(to: string, token: string): Promise<MailResult> {
  const link = resetLink(token);
  const lines = [
    `Someone (we hope you) asked to reset the password of your ${FIRM.name} staff dashboard account.`,
    `Open the link below to choose a new password. The link works once, for ${RESET_HOURS} hour. Your other sessions will be signed out.`,
    "If you did not ask for this, ignore this e-mail: your password stays as it is.",
  ];
  return sendMail({
    to,
    subject: `Reset your ${FIRM.name} staff dashboard password`,
    text: `${lines.join("\n\n")}\n\n${link}\n\n${FIRM.name}\n`,
    html: html(lines, link, "Choose a new password"),
    kind: "password-reset",
    sensitive: true,
  });
}

/** What an action says after sending: sent, kept in the outbox (no SMTP), not sent (kept to retry), or refused for good. */
export function mailStatus(result: MailResult, done: string): Status {
  if (result.status === "sent") return { tone: "success", text: `${done} The e-mail has been sent.` };
  if (result.status === "outbox") {
    return {
      tone: "success",
      text: `${done} No e-mail server is set up (SMTP_URL), so the e-mail was kept in the Outbox: an owner can read it there and pass the link on.`,
    };
  }
  if (result.status === "held" || result.status === "queued") {
    return { tone: "success", text: `${done} The e-mail is kept in the Outbox and will be sent shortly.` };
  }
  if (result.permanent) {
    return {
      tone: "error",
      text: `${done} But the e-mail server refused the address for good (${result.error}), so it will not be tried again. Check the address; the e-mail is kept in the Outbox, where an owner can send it again.`,
    };
  }
  return {
    tone: "error",
    text: `${done} But the e-mail could not be sent (${result.error}). It is kept in the Outbox and will be tried again automatically; an owner can also send it again from there.`,
  };
}
