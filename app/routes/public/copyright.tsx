import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/copyright";
import { LegalPage } from "~/components/public/legal-page";
import { publicMeta } from "~/components/public/meta";
import { PublicRouteError } from "~/components/public/public-error";
import { FIRM } from "~/config/firm";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. Visit statistics count it by its path. */
export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

export function meta({ matches }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: "Copyright",
    description: `Copyright notice for the website of ${FIRM.name}: ownership of its content and the terms on which it may be used.`,
    path: "/copyright",
  });
}

export default function Copyright() {
  const layout = useRouteLoaderData<{ year: number }>("routes/public/layout");
  const year = layout?.year ?? new Date().getFullYear();
  return (
    <LegalPage title="Copyright">
      <p className="font-semibold">
        © {year} {FIRM.name}. All Rights Reserved.
      </p>
      <p>
        The content of this website, including its text, articles, photographs, graphics, logos and the arrangement of its pages, is
        owned by {FIRM.name} or used with the permission of its owners, and is protected by the copyright laws of Canada and by
        international treaties.
      </p>
      <h2>Permitted use</h2>
      <p>
        You may view, download and print pages of this website for your own personal, non-commercial reference, provided that you
        keep every copyright and other proprietary notice intact. You may link to any public page of the site.
      </p>
      <h2>What is not permitted</h2>
      <p>
        You may not otherwise copy, reproduce, republish, adapt, distribute, transmit or display any part of this website, or frame
        it within another site, without the prior written permission of {FIRM.name}.
      </p>
      <h2>Trademarks</h2>
      <p>The firm's name and logo are trademarks of {FIRM.name} and may not be used without permission.</p>
      <h2>Requests</h2>
      <p>
        To ask for permission to use any content of this website, write to{" "}
        <a href={`mailto:${FIRM.email}`}>{FIRM.email}</a>.
      </p>
    </LegalPage>
  );
}

export const ErrorBoundary = PublicRouteError;
