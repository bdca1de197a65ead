/**
 * /subscribe/one-click/:token: the RFC 8058 List-Unsubscribe address. A POST
 * (from the mail provider, without cookies; the cross-site refusal lets this
 * path through, server/app.ts) unsubscribes at once. A GET never does: it
 * leads to the preferences page.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/subscribe-one-click";
import { getSubscriber, withdrawConsent } from "~/.server/db/subscribers";
import { checkPreferencesToken, tokenSubscriberId } from "~/.server/subscriptions/links";

const HEADERS = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/subscribe/preferences/${encodeURIComponent(params.token ?? "")}`, { status: 303 });
}

export async function action({ params, request }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response("Method not allowed.", { status: 405, headers: { ...HEADERS, Allow: "POST" } });
  const token = params.token ?? "";
  const id = tokenSubscriberId(token);
  const subscriber = id === null ? undefined : await getSubscriber(id);
  if (!subscriber || !checkPreferencesToken(token, subscriber)) return new Response("This unsubscribe link is not valid.", { status: 404, headers: HEADERS });
  await withdrawConsent(subscriber.id, "one-click");
  return new Response("You are unsubscribed.", { status: 200, headers: HEADERS });
}
