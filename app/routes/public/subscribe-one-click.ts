/**
 * /subscribe/one-click/:token: the RFC 8058 List-Unsubscribe address. A POST
 * (from the mail provider, without cookies; the cross-site refusal lets this
 * path through, server/app.ts) unsubscribes at once. A GET never does: it
 * leads to the preferences page.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/subscribe-one-click";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { getSubscriber, withdrawConsent } from "~/.server/db/subscribers";
import { checkPreferencesToken, tokenSubscriberId } from "~/.server/subscriptions/links";

const HEADERS = { "Cache-Control": "no-store" };
const answer = (status: number, tone: "success" | "error", text: string) => Response.json({ status: { tone, text } }, { status, headers: HEADERS });

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/subscribe/preferences/${encodeURIComponent(params.token ?? "")}`, { status: 303 });
}

export async function action({ params, request }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response("Method not allowed.", { status: 405, headers: { ...HEADERS, Allow: "POST" } });
  // The body (RFC 8058: "List-Unsubscribe=One-Click") is not needed; a large one is refused unread.
  const form = await readForm(request, 4096);
  if (isRefusal(form) && form.init?.status === 413) return answer(413, "error", "The request is too large.");
  const token = params.token ?? "";
  const id = tokenSubscriberId(token);
  const subscriber = id === null ? undefined : await getSubscriber(id);
  if (!subscriber || !checkPreferencesToken(token, subscriber)) return answer(404, "error", "This unsubscribe link is not valid.");
  await withdrawConsent(subscriber.id, "one-click");
  return answer(200, "success", "You are unsubscribed.");
}
