import { isRouteErrorResponse, Links, Meta, Outlet, ScrollRestoration } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import interFont from "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import { useNonce } from "./lib/nonce";
import { ErrorPage } from "./components/error-page";
import { LowPriorityScripts } from "./components/low-priority-scripts";

export const links: Route.LinksFunction = () => [
  { rel: "preload", href: interFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en-CA">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#13233a" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <LowPriorityScripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorPage status={404} title="Page not found" message="The page you are looking for does not exist or has moved." />;
  }
  const stack = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <ErrorPage
      status={status}
      title={status === 503 ? "We'll be right back" : "Something went wrong"}
      message={
        status === 503
          ? "The site is briefly unavailable. Please try again in a moment."
          : "An unexpected error occurred on our side. Please try again, or call us if it keeps happening."
      }
      stack={stack}
    />
  );
}
