/** Forms of the staff pages (Staff screen, e-mailed links, My account): Zod schemas shared by browser and action, and their messages. */
import { z } from "zod";
import { email } from "./fields";

export const ROLE_CHOICES = ["owner", "admin", "editor", "events"] as const;

export const inviteSchema = z.object({
  email: email("Email"),
  role: z.enum(ROLE_CHOICES, { error: "Choose a role." }),
});

export const forgotSchema = z.object({ email: email("Email") });

export const STAFF_TEXT = {
  forgotAnswer:
    "If an active staff account uses that address, a link to choose a new password is on its way. It works once, for 1 hour. Check your inbox (and spam folder).",
  resetDone: "Your new password is set, and every session of your account was signed out. Sign in with your new password.",
  resetExpired: "This password reset link has expired: reset links work for 1 hour. Ask for a new one below.",
  resetInvalid:
    "This password reset link is not valid: it has already been used, was replaced by a newer one, or was copied incompletely. Ask for a new one below.",
  invitationExpired:
    "This invitation has expired: invitations work for 72 hours. Ask for a new one below and it will be sent to the same address.",
  invitationInvalid:
    "This invitation link is not valid: it has already been used, was withdrawn or replaced by a newer one, or was copied incompletely. If you have already set your password, sign in; otherwise ask the person who invited you for a new invitation.",
  /** Followed by what became of the e-mail (mailStatus): sent, kept in the Outbox, or not sent yet. */
  invitationRenewed: "A new invitation has been made for the address this one was sent to. It works once, for 72 hours.",
  invitationAccepted: "Welcome! Your password is set. Sign in with your e-mail address and your new password.",
  passkeyFailure: "Sign-in with a passkey did not work. Try again, or sign in with your e-mail and password.",
  passkeyAddFailure: "The passkey could not be added. Try again; your browser or device may not support passkeys.",
} as const;
