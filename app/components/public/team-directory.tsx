/**
 * The team list with its filters (issue 33), on /team and on the practice
 * pages' Team tab: a GET form (practice area where the page is not a
 * practice's, language, role, name) that works without JavaScript; with it
 * app/enhance/team-filters.ts fetches the filtered page on each choice and
 * swaps in its list (`data-team-results`) and count (`data-team-count`, a
 * polite status region), keeping the address in step.
 */
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

export function TeamDirectory(props: TeamDirectoryProps) {
  const f = props.filters;
  const filtered = f.practice !== null || f.language !== null || f.role !== null || f.q !== "";
  if (props.total === 0) return <StatusMessage>{EMPTY_TEAM}</StatusMessage>;
  // A language asked for in the address that nobody listed speaks stays chosen (and finds no one).
  const languages =
    f.language && !props.languages.some((l) => l.code === f.language)
      ? [...props.languages, { code: f.language, label: LANGUAGES.find((l) => l.code === f.language)?.label ?? f.language }]
      : props.languages;
  return (
    <div>
      <form
        method="get"
        action={props.action}
        role="search"
        aria-label="Filter the team"
        data-team-filters=""
        className="grid gap-4 border-b border-line pb-8 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]"
      >
        {Object.entries(props.hidden ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {props.practiceFilter ? (
          <div>
            <label htmlFor="team-practice" className={LABEL}>
              Practice area
            </label>
            <select id="team-practice" name="practice" defaultValue={f.practice ?? ""} className={FIELD}>
              <option value="">All practice areas</option>
              {PRACTICE_AREAS.map((area) => (
                <option key={area} value={area}>
                  {PRACTICE_PAGES[area].title}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div>
          <label htmlFor="team-language" className={LABEL}>
            Language
          </label>
          <select id="team-language" name="language" defaultValue={f.language ?? ""} className={FIELD}>
            <option value="">All languages</option>
            {languages.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="team-role" className={LABEL}>
            Role
          </label>
          <select id="team-role" name="role" defaultValue={f.role ?? ""} className={FIELD}>
            <option value="">All roles</option>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
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
      </form>
      <p role="status" data-team-count="" className="mt-6 text-muted">
        {teamCountText(props.members.length, props.total, filtered)}
      </p>
      <div data-team-results="" className="mt-8">
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
