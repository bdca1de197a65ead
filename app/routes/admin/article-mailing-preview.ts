/**
 * GET /dashboard/articles/:id/mailing/preview: the e-mail an article's
 * mailing sends, as a subscriber would see it (HTML, or ?format=text for the
 * plain-text part), with example links in place of each recipient's own.
 */
import type { Route } from "./+types/article-mailing-preview";
import { parseId } from "~/.server/http/form-post";
import { articleTemplate, mailingArticle, personalise } from "~/.server/subscriptions/mailing-sender";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

export async function loader({ params, request }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const article = id ? await mailingArticle(id) : undefined;
  if (!article) throw new Response("Not found", { status: 404 });
  const message = personalise(await articleTemplate(article), { id: 0, email: "subscriber@example.com" });
  const text = new URL(request.url).searchParams.get("format") === "text";
  return new Response(text ? message.text : message.html, {
    headers: {
      "Content-Type": `${text ? "text/plain" : "text/html"}; charset=utf-8`,
      "Cache-Control": "private, no-store",
      "X-Frame-Options": "SAMEORIGIN",
    },
  });
}
