/** /dashboard: one card per screen the signed-in role may open (the screens' routes declare them: lib/route-handle.ts `nav`). */
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { AdminPage } from "~/components/admin/admin-page";
import { ScreenIcon } from "~/components/admin/screen-icon";
import { linkClass } from "~/components/admin/styles";
import { staffOf } from "~/.server/admin/guard.server";
import { dashboardScreens } from "~/.server/admin/screens.server";
import { can } from "~/.server/auth/roles";
import { heldMailCount } from "~/.server/db/outbox";
import { getEnv } from "~/.server/env";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "signed-in" } satisfies RouteHandle;

export async function loader({ context }: Route.LoaderArgs) {
  const { role } = staffOf(context);
  return {
    cards: dashboardScreens(context, role).map(({ to, title, text, icon }) => ({ to, title, text, icon })),
    // Owners (who read the Outbox) are told when the hourly cap on sign-up e-mails holds some back (issue 42).
    held: can(role, "outbox") ? await heldMailCount() : 0,
    perHour: getEnv().SIGN_UP_EMAILS_PER_HOUR,
  };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Dashboard">
      {loaderData.held > 0 ? (
        <div className="mb-6 rounded border border-error bg-white p-4" data-testid="held-mail-alert">
          <h2 className="font-serif text-lg font-semibold text-ink">Sign-up e-mails held</h2>
          <p className="mt-1">
            {loaderData.held} {loaderData.held === 1 ? "e-mail is" : "e-mails are"} held: the site&apos;s limit of {loaderData.perHour}{" "}
            sign-up e-mails an hour (SIGN_UP_EMAILS_PER_HOUR) has been reached, which may mean a bot is using the subscription form. They go
            out as the limit allows.{" "}
            <Link to="/dashboard/outbox" className={linkClass}>
              Open the Outbox
            </Link>{" "}
            to see them.
          </p>
        </div>
      ) : null}
      <ul className="grid gap-4 sm:grid-cols-2">
        {loaderData.cards.map(({ to, title, text, icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full items-start gap-4 rounded border border-line bg-white p-5 shadow-sm hover:border-accent hover:shadow"
            >
              <ScreenIcon name={icon} className="mt-1 size-7 shrink-0 text-accent" />
              <span>
                <span className="block font-serif text-xl font-semibold text-ink">{title}</span>
                <span className="mt-1 block text-muted">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </AdminPage>
  );
}
