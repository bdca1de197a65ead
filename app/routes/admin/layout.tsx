/**
 * The dashboard frame: home icon to /dashboard, LOGOUT (a POST form), and
 * the one status region. Its middleware is the dashboard's guard (session and
 * the route's permission, before any loader or action); its loader reads the
 * one-time message.
 */
import { House, LogOut } from "lucide-react";
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
import { can } from "~/.server/auth/roles";
import { DASHBOARD_SCREENS } from "~/lib/dashboard-screens";
import { readFlash } from "~/.server/admin/flash.server";
import { AnnounceContext, StatusRegion, useActionStatus } from "~/components/admin/status";
import { useHydrated } from "~/components/admin/hydrated";
import { btnPrimary } from "~/components/admin/styles";
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
  const nav = blocked
    ? []
    : DASHBOARD_SCREENS.filter((s) => s.nav && (s.permission === null || can(staff.role, s.permission))).map(({ to, title }) => ({
        to,
        title,
      }));
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

function Frame({ email, nav = [], children }: { email?: string; nav?: { to: string; title: string }[]; children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-accent px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <header className="on-dark bg-ink text-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex items-center gap-3">
            <Link to="/dashboard" aria-label="Dashboard home" className="rounded p-2 hover:bg-ink-2">
              <House aria-hidden="true" className="size-6" />
            </Link>
            <span className="font-serif text-lg font-semibold">Staff dashboard</span>
          </div>
          {nav.length ? (
            <nav aria-label="Dashboard" className="order-last w-full sm:order-none sm:w-auto">
              <ul className="flex flex-wrap gap-1">
                {nav.map((item) => (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      className="block rounded px-3 py-1.5 font-semibold text-white/90 hover:bg-ink-2 hover:text-white aria-[current=page]:bg-ink-2 aria-[current=page]:text-white aria-[current=page]:underline"
                    >
                      {item.title}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <div className="flex items-center gap-3">
            {email ? <span className="hidden text-sm text-white/90 sm:inline">{email}</span> : null}
            <Form method="post" action="/logout" aria-label="Logout">
              <button
                type="submit"
                className="inline-flex items-center gap-2 rounded border border-white/70 px-3 py-1.5 font-semibold hover:bg-ink-2"
              >
                <LogOut aria-hidden="true" className="size-4" /> LOGOUT
              </button>
            </Form>
          </div>
        </div>
      </header>
      {children}
    </div>
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
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none" data-hydrated={hydrated ? "true" : undefined}>
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
