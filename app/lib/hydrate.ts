/**
 * Which pages run React in the browser (issue 15, ARCHITECTURE.md): a route
 * that needs it exports `handle = { hydrate: true }` (the dashboard layout,
 * the sign-in page); the root renders React Router's scripts only when a
 * matched route asks. Every other page is server-rendered HTML with the
 * public enhancement module and no framework code.
 */
import type { RouteHandle } from "./route-handle";

export const HYDRATE = { hydrate: true } as const satisfies RouteHandle;

export function wantsHydration(matches: readonly { handle?: unknown }[]): boolean {
  return matches.some((match) => (match.handle as RouteHandle | undefined)?.hydrate === true);
}
