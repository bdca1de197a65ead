import { isRouteErrorResponse, Links, Meta, Outlet, ScrollRestoration, useMatches } from "react-router";
import type { Route } from "./+types/root";
import cssHref from "./app.css?url";
import interFont from "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import serifFont from "../node_modules/@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2?url";
import enhanceUrl from "virtual:public-enhancement";
import { useNonce } from "./lib/nonce";
import { wantsHydration } from "./lib/hydrate";
import { SPECULATION_RULES } from "./lib/speculation-rules";
import { ErrorPage } from "./components/error-page";
import { LowPriorityScripts } from "./components/low-priority-scripts";
import { bindRequestServices } from "~/.server/http/request-context";

/**
 * The root has no loader, on purpose: an error thrown by a route's middleware
 * (the dashboard's guard: 403, the sign-in redirect) is shown by the nearest
 * error boundary at or above the first route with a loader, so the
 * dashboard's refusals keep the dashboard's own frame. Each layout's loader
 * gives what every page needs (pictureBase, …).
 *
 * Its one middleware makes the request context's services (database,
 * storage, mail, job queue) the ones every loader and action of the request
 * uses (app/.server/http/request-context.ts); it never throws.
 */
export const middleware: Route.MiddlewareFunction[] = [bindRequestServices];

export const links: Route.LinksFunction = () => [
  // Both families are in the first view (body text, the headings that are the largest paint).
  { rel: "preload", href: interFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: serifFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
];

/**
 * Scripts: React Router's (hydration, client navigation) only for routes that
 * ask (`handle = { hydrate: true }`: the dashboard and its sign-in page).
 * Public pages get the enhancement module (a few KB, no framework) and the
 * Speculation Rules that make the next page instant (lib/hydrate.ts).
 */
function PageScripts({ nonce }: { nonce?: string }) {
  if (wantsHydration(useMatches())) {
    return (
      <>
        <ScrollRestoration nonce={nonce} />
        <LowPriorityScripts nonce={nonce} />
      </>
    );
  }
  return (
    <>
      <script type="module" src={enhanceUrl} fetchPriority="low" nonce={nonce} />
      <script type="speculationrules" nonce={nonce} dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
    </>
  );
}

/**
 * The stylesheet: public pages carry it inline (the public layout's loader
 * reads it on the server; one round trip less before the first paint), the
 * dashboard links the same file. A page without it (an error before the
 * layout) links it too.
 */
function Stylesheet() {
  const matches = useMatches();
  const css = wantsHydration(matches)
    ? undefined
    : (matches.find((m) => m.id === "routes/public/layout")?.loaderData as { css?: string } | undefined)?.css;
  return css ? <style dangerouslySetInnerHTML={{ __html: css }} /> : <link rel="stylesheet" href={cssHref} />;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce() || undefined;
  return (
    <html lang="en-CA">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#13233a" />
        <Meta />
        <Links />
        <Stylesheet />
      </head>
      <body>
        {children}
        <PageScripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorPage status={404} title="Page not found" message="The page you are looking for does not exist or has moved." />;
  }
  const stack = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <ErrorPage
      status={status}
      title={status === 503 ? "We'll be right back" : "Something went wrong"}
      message={
        status === 503
          ? "The site is briefly unavailable. Please try again in a moment."
          : "An unexpected error occurred on our side. Please try again, or call us if it keeps happening."
      }
      stack={stack}
    />
  );
}
