import { isRouteErrorResponse, useRouteError } from "react-router";
import { ErrorPage } from "~/components/error-page";

/**
 * The error boundary of public pages: rendered inside the site frame. A 404
 * gets `notFound` (or the generic page-not-found text); anything else a
 * friendly 500 page with nothing internal shown. A page with no words of its
 * own exports it as is (`export const ErrorBoundary = PublicRouteError`).
 */
export function PublicRouteError({ notFound }: { notFound?: { title: string; message: string } }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ErrorPage
        status={404}
        title={notFound?.title ?? "Page not found"}
        message={notFound?.message ?? "The page you are looking for does not exist or has moved."}
      />
    );
  }
  return (
    <ErrorPage
      status={isRouteErrorResponse(error) ? error.status : 500}
      title="Something went wrong"
      message="An unexpected error occurred on our side. Please try again, or call us if it keeps happening."
    />
  );
}
