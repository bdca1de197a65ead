import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { publicMeta } from "~/components/public/meta";
import { PublicRouteError } from "~/components/public/public-error";
import type { RouteHandle } from "~/lib/route-handle";

/** Visit statistics count it as "not found", never by its path. */
export const handle = { statistics: "not-found" } satisfies RouteHandle;


/** Any path no other route matches: a 404 page inside the site frame. */
export function loader() {
  throw data(null, { status: 404 });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: "Page not found",
    description: "The page you are looking for does not exist or has moved.",
    path: location.pathname,
    noindex: true,
  });
}

export default function NotFound() {
  return null;
}

export const ErrorBoundary = PublicRouteError;
