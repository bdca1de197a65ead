/**
 * The event registration form (issue 45) and its messages. Pure: used by
 * the event page and by its action (app/.server/events/registration-form.server.ts).
 * The honeypot and the timing token are the enquiry form's (lib/forms/enquiry.ts).
 */
import { z } from "zod";
import { FIRM } from "~/config/firm";
import { text } from "./fields";

export const REGISTRATION_FIELDS = ["name", "email", "organisation", "job_title", "accessibility_needs", "alerts"] as const;

export type RegistrationValues = {
  name: string;
  email: string;
  organisation: string;
  job_title: string;
  accessibility_needs: string;
  alerts: boolean;
};

export const EMPTY_REGISTRATION: RegistrationValues = {
  name: "",
  email: "",
  organisation: "",
  job_title: "",
  accessibility_needs: "",
  alerts: false,
};

/**
 * The query parameter of the event page a valid registration is redirected
 * to (303, Post/Redirect/Get): `?registration=sent` shows REGISTRATION_MSG.sent
 * in place of the form. The same page for everyone (the answer never says
 * whether the address was already registered), so the page cache keeps it.
 */
export const REGISTRATION_SENT_PARAM = "registration";
export const REGISTRATION_SENT_VALUE = "sent";

export const REGISTRATION_MSG = {
  checkFields: "Please correct the highlighted fields.",
  /** The one answer to a valid registration, whether or not the address was already registered or waiting. */
  sent: "Thank you. Unless this address was already registered for this event, we have e-mailed it the details of the registration and a link to cancel it.",
  refused: `Thank you. We could not accept this registration through the form. Please call us at ${FIRM.phone} or e-mail ${FIRM.email}.`,
  again: "Your registration has not been sent yet. Everything you entered is still here: please press Register once more to send it.",
  closed: "Registration for this event is closed.",
  tooLarge: "The form is too large to send. Please shorten what you entered.",
  unreadable: "The form could not be read. Please try again.",
  storeError: `Your registration could not be recorded because of a problem on our side. Please try again in a few minutes, or call us at ${FIRM.phone}.`,
  cancelled: "Your registration is cancelled. Thank you for letting us know.",
  cancelMissing: "This cancellation link is not valid, or the registration was already cancelled.",
} as const;

export const ALERTS_WORDING = "Also send me the firm's insights and client alerts by e-mail (you will be asked to confirm).";

export const registrationSchema = z.object({
  name: text("Name", 200),
  email: text("E-mail", 320).pipe(z.email("Enter a valid e-mail address, such as name@example.com.")),
  organisation: text("Organisation", 200),
  job_title: text("Title", 200, { optional: true }),
  accessibility_needs: text("Accessibility needs", 1000, { optional: true }),
  alerts: z.preprocess((v) => v === "yes", z.boolean()),
});
