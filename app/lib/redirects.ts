/** What a redirect may answer, and the words the dashboard uses for it (issue 46; browser and server). */
export const REDIRECT_STATUSES = [301, 302, 307, 308, 410] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

export const STATUS_LABELS: Record<RedirectStatus, string> = {
  301: "301 Moved permanently",
  302: "302 Found (temporary)",
  307: "307 Temporary redirect",
  308: "308 Permanent redirect",
  410: "410 Gone",
};

/** Where a redirect came from. */
export const ORIGIN_LABELS: Record<string, string> = {
  manual: "Added here",
  slug: "Page renamed",
  wordpress: "WordPress import",
  csv: "CSV import",
  "not-found": "From the 404 log",
};
