import type { Route } from "./+types/team";
import { getPageHeaderText } from "~/.server/db/page-headers";
import { listTeamCards } from "~/.server/db/team";
import { log } from "~/.server/log";
import { publicMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { PublicRouteError } from "~/components/public/public-error";
import { TeamDirectory } from "~/components/public/team-directory";
import { FIRM } from "~/config/firm";
import { PRACTICE_PAGES } from "~/lib/practice";
import type { RouteHandle } from "~/lib/route-handle";
import { describeTeamFilters, filterTeam, isFiltered, languagesSpoken, parseTeamFilters, TEAM_FILTER_PARAMS } from "~/lib/team-filters";

/** The filters are read from the URL (issue 33): the page cache keeps each filtered view under its own key. */
export const handle = { pageCache: { params: TEAM_FILTER_PARAMS }, statistics: "path" } satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const filters = parseTeamFilters(new URL(request.url).searchParams);
  const [headerText, everyone] = await Promise.all([
    getPageHeaderText("team"),
    listTeamCards().catch((error: unknown) => {
      log("error", "Error loading team members", { error: (error as Error)?.message });
      throw error;
    }),
  ]);
  const members = filterTeam(everyone, filters).map(({ id, slug, full_name, title, img }) => ({ id, slug, full_name, title, img }));
  return {
    headerText,
    filters,
    filtered: isFiltered(filters),
    description: describeTeamFilters(filters, (area) => PRACTICE_PAGES[area].title),
    languages: languagesSpoken(everyone),
    total: everyone.length,
    members,
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  // Filtered views: not indexed, the canonical link is /team.
  return publicMeta(matches, {
    title: loaderData?.filtered ? `Our Team: ${loaderData.description}` : "Our Team",
    description: `Meet the lawyers and staff of ${FIRM.name}: insurance defence, construction disputes and cyber incident response counsel in Toronto.`,
    path: "/team",
    noindex: loaderData?.filtered || undefined,
  });
}

export default function Team({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow={FIRM.name} title="Our Team" text={loaderData.headerText} />
      <section aria-label="Team members" className="fade-section mx-auto max-w-7xl px-5 pt-8 pb-20 sm:pt-20 lg:px-8">
        {/* Eager: the first row on a phone (two columns). More eager pictures compete with the fonts for a phone's first paint. */}
        <TeamDirectory
          action="/team"
          practiceFilter
          filters={loaderData.filters}
          languages={loaderData.languages}
          members={loaderData.members}
          total={loaderData.total}
          clearHref="/team"
          eagerCount={2}
        />
      </section>
    </main>
  );
}

export const ErrorBoundary = PublicRouteError;
