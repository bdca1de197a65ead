import { Outlet, useLocation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { getEnv } from "~/.server/env";
import { INLINE_CSS } from "~/.server/http/inline-css";
import { ErrorPage } from "~/components/error-page";
import { SiteFooter } from "~/components/public/site-footer";
import { SiteHeader } from "~/components/public/site-header";
import { SkipLink } from "~/components/skip-link";

/**
 * The public site's frame. Public pages are rendered on the server and run no
 * React in the browser (lib/hydrate.ts): their components hold no state or
 * effects; behaviour comes from data attributes read by app/enhance/.
 */
export function loader() {
  // The stylesheet, inlined by the root (it never reaches the browser as data: public pages load no router).
  return { year: new Date().getFullYear(), siteUrl: getEnv().publicUrl, css: INLINE_CSS, pictureBase: getEnv().pictureBase };
}

/**
 * The dashboard (a React app in the browser) may route to a public page on
 * the client (a link, the redirect after sign-out): public pages are loaded
 * as documents instead, so they arrive as the server renders them, with
 * their own script and without the framework's.
 */
export async function clientLoader({ request }: Route.ClientLoaderArgs): Promise<never> {
  window.location.assign(request.url);
  return new Promise<never>(() => {});
}

type HomeData = { hoursText: string };

function Frame({ children, year }: { children: React.ReactNode; year: number }) {
  const { pathname } = useLocation();
  const isHome = pathname === "/";
  const home = useRouteLoaderData<HomeData>("routes/public/home");
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <SiteHeader isHome={isHome} currentPath={pathname} topBar={isHome && home ? { hoursText: home.hoursText } : undefined} />
      <div className="flex-1">{children}</div>
      <SiteFooter year={year} currentPath={pathname} />
      {/* The spec's loading text while a slow next page is on its way (app/enhance/loading-status.ts). */}
      <p
        data-loading-status=""
        role="status"
        className="pointer-events-none fixed bottom-5 left-1/2 z-50 -translate-x-1/2 rounded bg-ink px-5 py-3 text-sm font-semibold text-white shadow-lg empty:hidden"
      />
    </div>
  );
}

export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  return (
    <Frame year={loaderData.year}>
      <Outlet />
    </Frame>
  );
}

/** The layout's own data failed: the frame with a friendly page (status kept). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = (error as { status?: number })?.status === 404 ? 404 : 500;
  return (
    <Frame year={new Date().getFullYear()}>
      {status === 404 ? (
        <ErrorPage status={404} title="Page not found" message="The page you are looking for does not exist or has moved." />
      ) : (
        <ErrorPage
          status={500}
          title="Something went wrong"
          message="An unexpected error occurred on our side. Please try again, or call us if it keeps happening."
        />
      )}
    </Frame>
  );
}
