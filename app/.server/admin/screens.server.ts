/**
 * The dashboard's screens a staff member may open: the routes whose `handle`
 * declares `nav` (lib/route-handle.ts), in their order, kept to those whose
 * `permission` the person's role has (roles.ts; "signed-in": everyone). The
 * layout's top navigation and the home page's cards are both made from it,
 * so a screen is listed where its route is declared and nowhere else.
 */
import type { ScreenIcon } from "~/lib/route-handle";
import { can, type Role } from "../auth/roles";
import { routeHandles, type RequestContext } from "../http/request-context";

export type DashboardScreen = { to: string; label: string; title: string; text: string; icon: ScreenIcon };

export function dashboardScreens(context: RequestContext, role: Role): DashboardScreen[] {
  const screens: (DashboardScreen & { order: number })[] = [];
  for (const [pattern, handle] of routeHandles(context)) {
    const nav = handle?.nav;
    const permission = handle?.permission;
    if (!nav || !permission || (permission !== "signed-in" && !can(role, permission))) continue;
    screens.push({ to: pattern, label: nav.label, title: nav.title ?? nav.label, text: nav.text, icon: nav.icon, order: nav.order });
  }
  return screens.sort((a, b) => a.order - b.order).map(({ order: _order, ...screen }) => screen);
}
