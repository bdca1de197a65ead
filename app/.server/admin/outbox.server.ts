/** "Send again" on the Outbox screens (owners only): handed to the mail layer, which claims the message and records it in the trail together. */
import type { RequestContext } from "../http/request-context";
import { data, redirect } from "react-router";
import { MSG } from "~/lib/forms/messages";
import { getOutboxMessage } from "../db/outbox";
import { log } from "../log";
import { resendMail } from "../mail/mail";
import { flashHeaders } from "./flash.server";
import { actorOf } from "./guard.server";
import { isRefusal, parseId, readForm, type FailureData } from "../http/form-post";

export const RESEND_ERROR = "An error occurred: the message was not sent again. Please try again later.";

/** The answer when the message is gone, sent, or being sent by someone else (the retry job). */
function notResendable(message: { status: string } | null) {
  if (!message)
    return data<FailureData>({ status: { tone: "error", text: "That message no longer exists. Reload the page." } }, { status: 404 });
  return data<FailureData>(
    {
      status: {
        tone: "error",
        text: message.status === "sent" ? "That message has already been sent." : "That message is being sent right now.",
      },
    },
    { status: 409 },
  );
}

export async function resendAction(request: Request, context: RequestContext, back: (id: number) => string) {
  const actor = actorOf(context, RESEND_ERROR);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const id = parseId(form.get("id"));
  if (form.get("intent") !== "resend" || !id)
    return data<FailureData>({ status: { tone: "error", text: MSG.unreadableForm } }, { status: 400 });
  try {
    const message = await getOutboxMessage(id);
    if (!message || message.status === "sent" || message.status === "sending") return notResendable(message);
    // The claim of the row and its trail entry are one transaction (mail.ts): when its job took it first, nothing is recorded.
    const result = await resendMail(id, actor);
    if (!result) return notResendable(await getOutboxMessage(id));
    const text =
      result.status === "sent"
        ? `The message to ${message.to_address} has been sent.`
        : result.status === "failed"
          ? result.permanent
            ? `The e-mail server refused the message to ${message.to_address} for good (${result.error}), so it will not be tried again. Check the address.`
            : `The message to ${message.to_address} could not be sent (${result.error}). It stays in the Outbox and will be tried again.`
          : `No e-mail server is set up (SMTP_URL), so nothing was sent: the message stays in the Outbox.`;
    return redirect(back(id), { headers: await flashHeaders({ tone: result.status === "sent" ? "success" : "error", text }) });
  } catch (error) {
    log("error", "resend failed", { id, error: (error as Error).message });
    return data<FailureData>({ status: { tone: "error", text: RESEND_ERROR } }, { status: 500 });
  }
}
