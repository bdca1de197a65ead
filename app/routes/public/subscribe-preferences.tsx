/**
 * /subscribe/preferences/:token: a subscriber's preferences, opened from the
 * link in every message (a signed token, no sign-in; subscriptions/links.ts).
 * Change the topics, or unsubscribe from everything: effective at once and
 * kept in the consent records. Never cached; the token is not sent on as a
 * referrer.
 */
import { data } from "react-router";
import type { Route } from "./+types/subscribe-preferences";
import { readForm, isRefusal } from "~/.server/http/form-post";
import { changeTopics, getSubscriber, withdrawConsent, type Subscriber } from "~/.server/db/subscribers";
import { checkPreferencesToken, tokenSubscriberId } from "~/.server/subscriptions/links";
import { personalLinkMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { PublicRouteError } from "~/components/public/public-error";
import { TopicBoxes } from "~/components/public/subscribe-form";
import { fieldErrors, formText, formValues } from "~/lib/forms/form-data";
import { preferencesSchema, SUBSCRIBE_MSG } from "~/lib/forms/subscribe";
import type { RouteHandle } from "~/lib/route-handle";
import { actionOrLoaderHeaders } from "~/lib/http";

const NO_STORE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };

type View = { valid: false } | { valid: true; email: string; subscribed: boolean; topics: string[] };
type Answer = { message?: { tone: "success" | "error"; text: string }; status?: { tone: "success" | "error"; text: string } };

/** An answer that refuses: the message shown, also as the `status` every refusal carries. */
function refusal(text: string) {
  const m = { tone: "error" as const, text };
  return { message: m, status: m };
}

async function subscriberOf(token: string): Promise<Subscriber | undefined> {
  const id = tokenSubscriberId(token);
  if (id === null) return undefined;
  const subscriber = await getSubscriber(id);
  return subscriber && checkPreferencesToken(token, subscriber) ? subscriber : undefined;
}

function viewOf(s: Subscriber | undefined): View {
  if (!s) return { valid: false };
  return { valid: true, email: s.email, subscribed: s.status === "confirmed", topics: s.topics };
}

/**
 * Visit statistics count it under its pattern: the token in its path is a
 * secret. Its form's POST may carry `Origin: null` (the page is sent with
 * no referrer): the token makes it the site's own (server/same-origin.ts).
 */
export const handle = { statistics: "pattern", tokenInPath: true } satisfies RouteHandle;

export async function loader({ params }: Route.LoaderArgs) {
  const subscriber = await subscriberOf(params.token ?? "");
  return data<View & Answer>(viewOf(subscriber), { status: subscriber ? 200 : 404, headers: NO_STORE });
}

export async function action({ params, request }: Route.ActionArgs) {
  const form = await readForm(request, 8 * 1024);
  if (isRefusal(form) && form.init?.status === 413)
    return data<View & Answer>({ ...viewOf(await subscriberOf(params.token ?? "")), ...refusal("The form is too large to send.") }, { status: 413, headers: NO_STORE });
  if (isRefusal(form)) return data<View & Answer>({ ...viewOf(await subscriberOf(params.token ?? "")), ...refusal(SUBSCRIBE_MSG.unreadable) }, { status: 400, headers: NO_STORE });
  const subscriber = await subscriberOf(params.token ?? "");
  const invalid = { tone: "error" as const, text: SUBSCRIBE_MSG.preferencesInvalid };
  if (!subscriber) return data<View & Answer & { status: typeof invalid }>({ valid: false, status: invalid }, { status: 404, headers: NO_STORE });
  if (formText(form, "intent") === "unsubscribe") {
    await withdrawConsent(subscriber.id, "preferences");
    return data<View & Answer>(
      { ...viewOf(await getSubscriber(subscriber.id)), message: { tone: "success", text: SUBSCRIBE_MSG.unsubscribed } },
      { headers: NO_STORE },
    );
  }
  const parsed = preferencesSchema.safeParse(formValues(form, ["topics"]));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues);
    const text = errors.topics ?? Object.values(errors)[0] ?? SUBSCRIBE_MSG.topics;
    return data<View & Answer>({ ...viewOf(subscriber), ...refusal(text) }, { status: 400, headers: NO_STORE });
  }
  const saved = await changeTopics(subscriber.id, parsed.data.topics);
  return data<View & Answer>(
    {
      ...viewOf(await getSubscriber(subscriber.id)),
      message: saved ? { tone: "success", text: SUBSCRIBE_MSG.preferencesSaved } : { tone: "error", text: SUBSCRIBE_MSG.unsubscribed },
    },
    { headers: NO_STORE },
  );
}

export const headers = actionOrLoaderHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return personalLinkMeta(matches, { title: "Your subscription", description: "Change the topics you receive, or unsubscribe.", path: "/subscribe" });
}

const link = "font-semibold text-accent underline underline-offset-4";
const primary = "inline-flex items-center gap-2 bg-accent px-6 py-3 text-sm font-semibold tracking-[0.12em] text-white uppercase hover:bg-accent-dark";
const secondary = "inline-flex items-center gap-2 border-2 border-error bg-white px-6 py-3 text-sm font-semibold tracking-[0.12em] text-error uppercase";

export default function SubscribePreferences({ loaderData, actionData }: Route.ComponentProps) {
  const view = (actionData ?? loaderData);
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Insights" title="Your subscription" />
      <div className="mx-auto max-w-3xl px-5 py-16 lg:px-8">
        {view.message ? (
          <p
            role={view.message.tone === "success" ? "status" : "alert"}
            className={`mb-8 border-l-4 bg-white px-5 py-4 text-lg font-semibold ${view.message.tone === "success" ? "border-success text-success" : "border-error text-error"}`}
          >
            {view.message.text}
          </p>
        ) : null}
        {!view.valid ? (
          <p role="alert" className="text-lg leading-8 text-ink">
            {SUBSCRIBE_MSG.preferencesInvalid}
          </p>
        ) : view.subscribed ? (
          <>
            <p className="text-lg leading-8 text-ink">
              Messages go to <strong className="break-all">{view.email}</strong>.
            </p>
            <form method="post" className="mt-8 space-y-6">
              <fieldset>
                <legend className="font-semibold text-ink">Topics you receive</legend>
                <TopicBoxes form="prefs" chosen={view.topics} />
              </fieldset>
              <button type="submit" name="intent" value="topics" className={primary}>
                Save topics
              </button>
            </form>
            <form method="post" className="mt-12 border-t border-line pt-8">
              <h2 className="text-xl font-semibold">Unsubscribe from everything</h2>
              <p className="mt-2 text-ink">We will stop at once and send you nothing more.</p>
              <button type="submit" name="intent" value="unsubscribe" className={`mt-4 ${secondary}`}>
                Unsubscribe
              </button>
            </form>
          </>
        ) : (
          <p className="text-lg leading-8 text-ink">
            <strong className="break-all">{view.email}</strong> receives nothing from us. To receive insights again,{" "}
            <a href="/subscribe" className={link}>
              subscribe again
            </a>
            .
          </p>
        )}
      </div>
    </main>
  );
}

export const ErrorBoundary = PublicRouteError;
