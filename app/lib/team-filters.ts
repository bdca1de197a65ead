/**
 * The team directory's filters (issue 33): practice area, language, role and
 * a name search, kept in the URL (`/team?practice=cyber&language=fr`, and on
 * a practice page's Team tab `/cyber?tab=team&role=partners`). Unknown values
 * are ignored (the whole list, as for no filter). Pure: the loaders filter
 * the list they hold in memory; the form and its links are built from here.
 */
import { PRACTICE_AREAS, type PracticeArea } from "./practice";
import { LANGUAGES, ROLES, roleOfTitle, type LanguageCode, type Role } from "./profile";

/** The query parameters of the filters (the page cache keeps them in its key). */
export const TEAM_FILTER_PARAMS = ["practice", "language", "role", "q"] as const;
export const MAX_NAME_SEARCH = 100;

export type TeamFilters = { practice: PracticeArea | null; language: LanguageCode | null; role: Role | null; q: string };
export const NO_TEAM_FILTERS: TeamFilters = { practice: null, language: null, role: null, q: "" };

const oneOf = <T extends string>(values: readonly T[], raw: string | null): T | null => {
  const v = (raw ?? "").trim().toLowerCase();
  return (values as readonly string[]).includes(v) ? (v as T) : null;
};

export function parseTeamFilters(params: URLSearchParams): TeamFilters {
  return {
    practice: oneOf(PRACTICE_AREAS, params.get("practice")),
    language: oneOf(
      LANGUAGES.map((l) => l.code),
      params.get("language"),
    ),
    role: oneOf(
      ROLES.map((r) => r.value),
      params.get("role"),
    ),
    q: (params.get("q") ?? "").replace(/\0/g, "").replace(/\s+/g, " ").trim().slice(0, MAX_NAME_SEARCH),
  };
}

export function isFiltered(f: TeamFilters): boolean {
  return f.practice !== null || f.language !== null || f.role !== null || f.q !== "";
}

/** Lower case without accents: "Zoë" is found by "zoe". */
export function foldName(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

type Filterable = { AOP: readonly string[]; languages: readonly string[]; title: string; full_name: string };

/** The members that match every filter, in the order given (the spec's team order). */
export function filterTeam<T extends Filterable>(members: readonly T[], f: TeamFilters): T[] {
  if (!isFiltered(f)) return [...members];
  const q = foldName(f.q);
  return members.filter(
    (m) =>
      (!f.practice || m.AOP.some((a) => a.toLowerCase() === f.practice)) &&
      (!f.language || m.languages.includes(f.language)) &&
      (!f.role || roleOfTitle(m.title) === f.role) &&
      (!q || foldName(m.full_name).includes(q)),
  );
}

/** The URL of a filtered view: `base` (a path, or a path with `?tab=team`) and the filters set. */
export function teamFilterHref(base: string, f: TeamFilters): string {
  const [path, query = ""] = base.split("?");
  const params = new URLSearchParams(query);
  if (f.practice) params.set("practice", f.practice);
  if (f.language) params.set("language", f.language);
  if (f.role) params.set("role", f.role);
  if (f.q) params.set("q", f.q);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The languages the listed members speak (from the fixed list), for the filter's choices. */
export function languagesSpoken(members: readonly { languages: readonly string[] }[]): { code: LanguageCode; label: string }[] {
  const spoken = new Set(members.flatMap((m) => m.languages));
  return LANGUAGES.filter((l) => spoken.has(l.code)).map((l) => ({ code: l.code, label: l.label }));
}

/** "Partners", "French", "Insurance Defence"… in words, for the page title and the count. */
export function describeTeamFilters(f: TeamFilters, practiceTitle: (area: PracticeArea) => string): string {
  return [
    f.practice && practiceTitle(f.practice),
    f.language && LANGUAGES.find((l) => l.code === f.language)?.label,
    f.role && ROLES.find((r) => r.value === f.role)?.label,
    f.q && `“${f.q}”`,
  ]
    .filter(Boolean)
    .join(", ");
}
