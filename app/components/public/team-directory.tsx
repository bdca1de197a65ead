/**
 * The team list with its filters (issue 33), on /team and on the practice
 * pages' Team tab: a GET form (practice area where the page is not a
 * practice's, language, role, name) that works without JavaScript; with it
 * app/enhance/team-filters.ts fetches the filtered page on each choice and
 * swaps in its list (`data-team-results`) and count (`data-team-count`, a
 * polite status region), keeping the address in step.
 *
 * Below 1024 px the fields fold into one "Filter" control (a <details>, so
 * it opens and closes without JavaScript) that shows how many filters are
 * active, and the first lawyer is on a phone's first screen (issue 43); from
 * 1024 px the fields are always shown as a bar (site.css, `.team-filters`).
 */
import { ChevronDown, SlidersHorizontal } from "lucide-react";
import { PRACTICE_AREAS, PRACTICE_PAGES } from "~/lib/practice";
import { LANGUAGES, ROLES } from "~/lib/profile";
import type { TeamFilters } from "~/lib/team-filters";
import { EMPTY_TEAM, StatusMessage } from "./status";
import { TeamGrid, type TeamCardData } from "./team-grid";

const FIELD = "mt-2 h-12 w-full rounded border border-muted bg-white px-3 text-base text-ink";
const LABEL = "block text-sm font-semibold text-ink";

export type TeamDirectoryProps = {
  /** The form's action: "/team", or the practice page's path. */
  action: string;
  /** Fields the page keeps (the practice page's `tab=team`). */
  hidden?: Record<string, string>;
  /** Offer the practice-area filter (not on a practice page: the page is the filter). */
  practiceFilter: boolean;
  filters: TeamFilters;
  languages: { code: string; label: string }[];
  members: TeamCardData[];
  /** How many members the page lists without filters. */
  total: number;
  /** The unfiltered list's address. */
  clearHref: string;
  headingLevel?: 2 | 3;
  eagerCount?: number;
};

export function teamCountText(shown: number, total: number, filtered: boolean): string {
  if (!filtered) return `${total} ${total === 1 ? "person" : "people"}`;
  return `${shown} of ${total} ${total === 1 ? "person" : "people"} match these filters`;
}

/** How many filters are set (the folded control's count). */
export function activeFilterCount(f: TeamFilters): number {
  return [f.practice !== null, f.language !== null, f.role !== null, f.q !== ""].filter(Boolean).length;
}

/** The practice-area filter's choices: each area by its page's title. */
const PRACTICE_OPTIONS = PRACTICE_AREAS.map((area) => ({ value: area, label: PRACTICE_PAGES[area].title }));

/** One filter's labelled <select> (`team-<name>`): "All …" (no filter) first, then the choices. */
function FilterSelect(props: { name: string; label: string; allText: string; value: string | null; options: readonly { value: string; label: string }[] }) {
  const id = `team-${props.name}`;
  return (
    <div>
      <label htmlFor={id} className={LABEL}>
        {props.label}
      </label>
      <select id={id} name={props.name} defaultValue={props.value ?? ""} className={FIELD}>
        <option value="">{props.allText}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function TeamDirectory(props: TeamDirectoryProps) {
  const f = props.filters;
  const active = activeFilterCount(f);
  const filtered = active > 0;
  if (props.total === 0) return <StatusMessage>{EMPTY_TEAM}</StatusMessage>;
  // A language asked for in the address that nobody listed speaks stays chosen (and finds no one).
  const languages =
    f.language && !props.languages.some((l) => l.code === f.language)
      ? [...props.languages, { code: f.language, label: LANGUAGES.find((l) => l.code === f.language)?.label ?? f.language }]
      : props.languages;
  const languageOptions = languages.map((l) => ({ value: l.code, label: l.label }));
  return (
    <div>
      <form
        method="get"
        action={props.action}
        role="search"
        aria-label="Filter the team"
        data-team-filters=""
        className="border-b border-line pb-6 lg:pb-8"
      >
        {Object.entries(props.hidden ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <details className="team-filters group">
          <summary className="flex h-12 cursor-pointer list-none items-center justify-between gap-3 rounded border border-muted bg-white px-4 font-semibold text-ink lg:hidden [&::-webkit-details-marker]:hidden">
            <span className="inline-flex items-center gap-2">
              <SlidersHorizontal aria-hidden="true" className="h-4 w-4" />
              Filter
              <span data-team-active-count="">
                {active > 0 ? (
                  <>
                    ({active}
                    <span className="sr-only"> active</span>)
                  </>
                ) : null}
              </span>
            </span>
            <ChevronDown aria-hidden="true" className="h-5 w-5 transition-transform group-open:rotate-180" />
          </summary>
          <div data-team-fields="" className="mt-4 grid gap-4 sm:grid-cols-2 lg:mt-0 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]">
        {props.practiceFilter ? (
          <FilterSelect name="practice" label="Practice area" allText="All practice areas" value={f.practice} options={PRACTICE_OPTIONS} />
        ) : null}
        <FilterSelect name="language" label="Language" allText="All languages" value={f.language} options={languageOptions} />
        <FilterSelect name="role" label="Role" allText="All roles" value={f.role} options={ROLES} />
        <div>
          <label htmlFor="team-q" className={LABEL}>
            Name
          </label>
          <input
            id="team-q"
            type="search"
            name="q"
            defaultValue={f.q}
            maxLength={100}
            autoComplete="off"
            enterKeyHint="search"
            className={FIELD}
          />
        </div>
        <div className="flex items-end gap-4">
          <button
            type="submit"
            className="h-12 rounded bg-accent px-6 text-sm font-semibold tracking-[0.12em] text-white uppercase hover:bg-accent-dark"
          >
            Filter
          </button>
          <span data-team-clear-slot="" className="pb-3">
            {filtered ? (
              <a href={props.clearHref} data-team-clear="" className="font-semibold text-accent underline underline-offset-2">
                Clear filters
              </a>
            ) : null}
          </span>
        </div>
          </div>
        </details>
      </form>
      <p role="status" data-team-count="" className="mt-4 text-muted lg:mt-6">
        {teamCountText(props.members.length, props.total, filtered)}
      </p>
      <div data-team-results="" className="mt-6 lg:mt-8">
        {props.members.length > 0 ? (
          <TeamGrid members={props.members} headingLevel={props.headingLevel} eagerCount={props.eagerCount} />
        ) : (
          <div className="py-16 text-center">
            <p className="text-lg text-ink">No team members match these filters.</p>
            <p className="mt-4">
              <a href={props.clearHref} data-team-clear="" className="font-semibold text-accent underline underline-offset-2">
                Clear the filters and show everyone
              </a>
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
