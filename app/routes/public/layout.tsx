import { useEffect, useRef } from "react";
import { Outlet, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { getEnv } from "~/.server/env";
import { ErrorPage } from "~/components/error-page";
import { useFadeIn } from "~/components/public/fade-in";
import { SiteFooter } from "~/components/public/site-footer";
import { SiteHeader } from "~/components/public/site-header";
import { StatusMessage } from "~/components/public/status";
import { loadingTextFor } from "~/lib/site";

export async function loader() {
  return { year: new Date().getFullYear(), siteUrl: getEnv().publicUrl };
}

type HomeData = { hoursText: string };

/**
 * After a client navigation to another page, focus moves to the new page's
 * content (`#main`, tabindex -1), as a full page load would put a screen
 * reader at the top: not left on a link that no longer exists. Filter, page
 * and tab changes (same path) keep the focus on the control that was used.
 */
function useFocusMainOnNavigation(pathname: string) {
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    document.getElementById("main")?.focus({ preventScroll: true });
  }, [pathname]);
}

function Frame({ children, year }: { children: React.ReactNode; year: number }) {
  const location = useLocation();
  const isHome = location.pathname === "/";
  const home = useRouteLoaderData("routes/public/home") as HomeData | undefined;
  useFadeIn(location.key);
  useFocusMainOnNavigation(location.pathname);
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-accent px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <SiteHeader isHome={isHome} topBar={isHome && home ? { hoursText: home.hoursText } : undefined} />
      <div className="flex-1">{children}</div>
      <SiteFooter year={year} />
    </div>
  );
}

export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const location = useLocation();
  const target = navigation.state === "loading" && !navigation.formMethod ? navigation.location : undefined;
  // A client navigation to another page: the spec's loading text for that page.
  const loadingText = target && target.pathname !== location.pathname ? loadingTextFor(target) : null;
  return (
    <Frame year={loaderData.year}>
      {loadingText ? (
        <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-5 py-24 lg:px-8">
          <StatusMessage>{loadingText}</StatusMessage>
        </main>
      ) : (
        <Outlet />
      )}
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
