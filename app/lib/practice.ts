/** The firm's practice areas, article categories and the fields of expertise (SPEC §3). */
export const PRACTICE_AREAS = ["insurance", "construction", "cyber"] as const;
export type PracticeArea = (typeof PRACTICE_AREAS)[number];

export const ARTICLE_CATEGORIES = ["insurance", "construction", "cyber", "events"] as const;
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];

/** Filters on /insights: `all` and `news` besides the categories. */
export const ARTICLE_FILTERS = ["all", "insurance", "construction", "cyber", "news", "events"] as const;
export type ArticleFilter = (typeof ARTICLE_FILTERS)[number];

export const HEADER_KEYS = ["team", "news", "insurance", "construction", "cyber"] as const;
export type HeaderKey = (typeof HEADER_KEYS)[number];

export const PRACTICE_PAGES: Record<PracticeArea, { path: string; title: string; subtitle?: string }> = {
  insurance: { path: "/insurance", title: "Insurance Defence" },
  construction: { path: "/construction", title: "Construction Disputes" },
  cyber: {
    path: "/cyber",
    title: "Cyber Security & Incident Response",
    subtitle: "Safeguarding your interests with swift action and solid defence.",
  },
};

/** Each area by its page's title ("Insurance Defence"): how the enquiry and subscription forms name the areas. */
export const PRACTICE_TITLES: Record<PracticeArea, string> = {
  insurance: PRACTICE_PAGES.insurance.title,
  construction: PRACTICE_PAGES.construction.title,
  cyber: PRACTICE_PAGES.cyber.title,
};

/** Members whose areas of practice contain the page's area. */
export function membersOfArea<T extends { AOP: readonly string[] }>(members: readonly T[], area: PracticeArea): T[] {
  return members.filter((m) => m.AOP.some((a) => a.toLowerCase() === area));
}

/** The fields of expertise a member's profile may name, in the spec's order (the team form's choices). */
export const EXPERTISE_CHOICES = [
  "Accident benefits",
  "Bodily injury (auto and non-auto)",
  "Subrogation",
  "Property claims",
  "Property damage",
  "Cyber law",
  "Slips, trips and falls",
  "Class actions",
  "Dog bites",
  "Contract law",
  "Human rights claims",
  "Travel/disability",
  "Mass tort litigation",
  "Fraud claims",
  "Occupier's liability claims",
  "Disability claims",
  "Medical malpractice",
  "Commercial litigation",
  "Wrongful dismissal",
  "Employment law",
  "Appeals",
  "Construction litigation",
  "Coverage issues",
  "Cyber claims",
  "Cyber incident response",
  "Insurance defence",
] as const;
