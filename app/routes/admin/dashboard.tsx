/** /dashboard: one card per screen the signed-in role may open (the screens' routes declare them: lib/route-handle.ts `nav`). */
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { AdminPage } from "~/components/admin/admin-page";
import { ScreenIcon } from "~/components/admin/screen-icon";
import { staffOf } from "~/.server/admin/guard.server";
import { dashboardScreens } from "~/.server/admin/screens.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "signed-in" } satisfies RouteHandle;

export function loader({ context }: Route.LoaderArgs) {
  return { cards: dashboardScreens(context, staffOf(context).role).map(({ to, title, text, icon }) => ({ to, title, text, icon })) };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Dashboard">
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
