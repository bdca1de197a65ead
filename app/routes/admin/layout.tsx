/**
 * The dashboard frame: home icon to /dashboard, LOGOUT (a POST form), the
 * navigation (every screen the person may open, from the routes' handles:
 * one row on a laptop, a Menu that opens it on a phone, without JavaScript
 * too), and the one status region. Its middleware is the dashboard's guard (session and
 * the route's permission, before any loader or action); its loader reads the
 * one-time message.
 */
import { House, LogOut, Menu } from "lucide-react";
import { useCallback, useState } from "react";
import {
  data,
  Form,
  isRouteErrorResponse,
  Link,
  NavLink,
  Outlet,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useNavigation,
} from "react-router";
import type { Route } from "./+types/layout";
import { dashboardGuard, staffOf } from "~/.server/admin/guard.server";
import { twoFactorRequired } from "~/.server/db/settings";
import { getEnv } from "~/.server/env";
import { dashboardScreens } from "~/.server/admin/screens.server";
import { readFlash } from "~/.server/admin/flash.server";
import { AnnounceContext, StatusRegion, useActionStatus } from "~/components/admin/status";
import { useHydrated } from "~/components/admin/hydrated";
import { btnPrimary } from "~/components/admin/styles";
import { SkipLink } from "~/components/skip-link";
import { MSG, type Status } from "~/lib/forms/messages";
import { HYDRATE } from "~/lib/hydrate";

/** The dashboard runs React in the browser (lib/hydrate.ts). */
export const handle = HYDRATE;

/** Every request for a route under this layout passes the dashboard's guard first: session and the route's permission. */
export const middleware: Route.MiddlewareFunction[] = [dashboardGuard];

export const NO_STORE = { "Cache-Control": "private, no-store" };

export function headers() {
  return NO_STORE;
}

export function meta() {
  return [{ title: "Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  const { status, headers } = await readFlash(request);
  // Only the screens this role may open (roles.ts); while two-factor sign-in is required and not set up, none.
  const blocked = !staff.twoFactor && (await twoFactorRequired());
  const nav = blocked ? [] : dashboardScreens(context, staff.role).map(({ to, label }) => ({ to, label }));
  return data({ email: staff.email, flash: status, nav, pictureBase: getEnv().pictureBase }, { headers });
}

/**
 * The session is checked again on every navigation and successful save (and
 * the one-time message cleared). After a refused save (4xx/5xx) nothing
 * changed: the page stays as it is, with what was typed, even when the
 * refusal was a database outage that would turn the check into an error page.
 */
export function shouldRevalidate({ actionStatus }: ShouldRevalidateFunctionArgs) {
  return !(actionStatus !== undefined && actionStatus >= 400);
}

type NavItem = { to: string; label: string };

function Frame({ email, nav = [], children }: { email?: string; nav?: NavItem[]; children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="on-dark bg-ink text-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-2">
          <div className="flex min-w-0 items-center gap-2">
            <Link to="/dashboard" aria-label="Dashboard home" className="shrink-0 rounded p-2 hover:bg-ink-2">
              <House aria-hidden="true" className="size-6" />
            </Link>
            <span className="truncate font-serif text-lg font-semibold">Staff dashboard</span>
          </div>
          <div className="flex min-w-0 items-center gap-3">
            {email ? <span className="hidden min-w-0 truncate text-sm text-white/90 md:inline">{email}</span> : null}
            <Form method="post" action="/logout" aria-label="Logout" className="shrink-0">
              <button
                type="submit"
                className="inline-flex items-center gap-2 rounded border border-white/70 px-3 py-1.5 font-semibold whitespace-nowrap hover:bg-ink-2"
              >
                <LogOut aria-hidden="true" className="size-4" /> LOGOUT
              </button>
            </Form>
          </div>
        </div>
        {nav.length ? <DashboardNav items={nav} /> : null}
      </header>
      {children}
    </div>
  );
}

/**
 * The screens in one row from 1280 px; narrower, a "Menu" (a <details>
 * disclosure, so it opens by keyboard and without JavaScript) shows them as a
 * list. It closes when a screen is chosen (a new page: a new disclosure).
 */
function DashboardNav({ items }: { items: NavItem[] }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Dashboard" className="border-t border-white/20">
      <div className="mx-auto max-w-7xl px-4">
        <details key={pathname} className="peer xl:hidden">
          <summary className="my-1.5 inline-flex cursor-pointer list-none items-center gap-2 rounded px-3 py-1.5 font-semibold hover:bg-ink-2 [&::-webkit-details-marker]:hidden">
            <Menu aria-hidden="true" className="size-5" /> Menu
          </summary>
        </details>
        <ul className="hidden grid-cols-2 gap-1 pb-3 peer-open:grid sm:grid-cols-3 xl:flex xl:gap-0.5 xl:py-1.5">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                className="block rounded px-3 py-1.5 font-semibold whitespace-nowrap text-white/90 hover:bg-ink-2 hover:text-white aria-[current=page]:bg-ink-2 aria-[current=page]:text-white aria-[current=page]:underline xl:px-1.5 xl:text-sm"
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const navigation = useNavigation();
  const actionStatus = useActionStatus();
  // A message shown from the browser (a check before sending) lasts until the next page or the next send.
  const [clientStatus, setClientStatus] = useState<Status | null>(null);
  const submitting = navigation.state === "submitting";
  const [shownFor, setShownFor] = useState({ key: location.key, submitting });
  if (shownFor.key !== location.key || shownFor.submitting !== submitting) {
    setShownFor({ key: location.key, submitting });
    if (shownFor.key !== location.key || submitting) setClientStatus(null);
  }
  const hydrated = useHydrated();
  const announce = useCallback((status: Status | null) => setClientStatus(status), []);
  const status = clientStatus ?? (navigation.state === "submitting" ? null : (actionStatus ?? loaderData.flash));
  return (
    <Frame email={loaderData.email} nav={loaderData.nav}>
      <AnnounceContext.Provider value={announce}>
        {/* data-screen: the address this main shows, once hydrated (a browser test waits for the screen it went to, not the one before). */}
        <main
          id="main"
          tabIndex={-1}
          className="flex-1 focus:outline-none"
          data-hydrated={hydrated ? "true" : undefined}
          data-screen={hydrated ? location.pathname + location.search : undefined}
        >
          <StatusRegion status={status} />
          <Outlet />
        </main>
      </AnnounceContext.Provider>
    </Frame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const ended = status === 401;
  const forbidden = status === 403;
  const unavailable = status === 503;
  return (
    <Frame>
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-16">
        <h1 className="text-3xl font-semibold">
          {ended
            ? "Please sign in again"
            : forbidden
              ? "Not allowed"
              : status === 404
                ? "Page not found"
                : unavailable
                  ? "We'll be right back"
                  : "Something went wrong"}
        </h1>
        <p role="alert" className="mt-4 text-lg text-muted">
          {ended
            ? "Your session has ended. Sign in again; nothing was saved."
            : forbidden
              ? MSG.forbidden
              : status === 404
                ? "This dashboard page does not exist."
                : unavailable
                  ? "The dashboard is briefly unavailable. Please try again in a moment. If you were saving a change, it was not saved."
                  : "An error occurred. Please try again later."}
        </p>
        <p className="mt-8">
          <a href={ended ? "/admin" : "/dashboard"} className={btnPrimary}>
            {ended ? "Go to the login page" : "Back to the dashboard"}
          </a>
        </p>
      </main>
    </Frame>
  );
}
