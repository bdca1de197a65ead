import type { Route } from "./+types/team";
import { getPageHeaderText } from "~/.server/db/page-headers";
import { listTeamCards } from "~/.server/db/team";
import { log } from "~/.server/log";
import { publicMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { PublicRouteError } from "~/components/public/public-error";
import { TeamGrid } from "~/components/public/team-grid";
import { FIRM } from "~/config/firm";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. */
export const handle = { pageCache: { params: [] } } satisfies RouteHandle;

export async function loader() {
  const [headerText, members] = await Promise.all([
    getPageHeaderText("team"),
    listTeamCards().catch((error: unknown) => {
      log("error", "Error loading team members", { error: (error as Error)?.message });
      throw error;
    }),
  ]);
  return { headerText, members: members.map(({ id, slug, full_name, title, img }) => ({ id, slug, full_name, title, img })) };
}

export function meta({ matches }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: "Our Team",
    description: `Meet the lawyers and staff of ${FIRM.name}: insurance defence, construction disputes and cyber incident response counsel in Toronto.`,
    path: "/team",
  });
}

export default function Team({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow={FIRM.name} title="Our Team" text={loaderData.headerText} />
      <section aria-label="Team members" className="fade-section mx-auto max-w-7xl px-5 py-20 lg:px-8">
        {/* Eager: the first row on a phone (two columns). More eager pictures compete with the fonts for a phone's first paint (docs/performance.md). */}
        <TeamGrid members={loaderData.members} eagerCount={2} />
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <PublicRouteError />;
}
