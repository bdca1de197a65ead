/** /dashboard: one card per screen the signed-in role may open (the four content cards for everyone). */
import { ChartLine, Clock, FileText, Heading, History, Inbox, LayoutGrid, Mail, ShieldCheck, UserCog, Users } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { can } from "~/.server/auth/roles";
import { AdminPage } from "~/components/admin/admin-page";
import { DASHBOARD_SCREENS } from "~/lib/dashboard-screens";
import { staffOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "signed-in" } satisfies RouteHandle;

export function loader({ context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  return {
    cards: DASHBOARD_SCREENS.filter((s) => s.permission === null || can(staff.role, s.permission)).map(({ to, title, text }) => ({
      to,
      title,
      text,
    })),
  };
}

const ICONS: Record<string, typeof Users> = {
  "/dashboard/lawyers": Users,
  "/dashboard/articles": FileText,
  "/dashboard/hours/edit": Clock,
  "/dashboard/headers/edit": Heading,
  "/dashboard/staff": UserCog,
  "/dashboard/activity": History,
  "/dashboard/enquiries": Inbox,
  "/dashboard/statistics": ChartLine,
  "/dashboard/outbox": Mail,
  "/dashboard/account": ShieldCheck,
};

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Dashboard">
      <ul className="grid gap-4 sm:grid-cols-2">
        {loaderData.cards.map(({ to, title, text }) => {
          const Icon = ICONS[to] ?? LayoutGrid;
          return (
            <li key={to}>
              <Link
                to={to}
                className="flex h-full items-start gap-4 rounded border border-line bg-white p-5 shadow-sm hover:border-accent hover:shadow"
              >
                <Icon aria-hidden="true" className="mt-1 size-7 shrink-0 text-accent" />
                <span>
                  <span className="block font-serif text-xl font-semibold text-ink">{title}</span>
                  <span className="mt-1 block text-muted">{text}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </AdminPage>
  );
}
