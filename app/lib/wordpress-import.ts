/** What a WordPress category may become here (issue 46; the import screen and the importer). */
export const CATEGORY_TARGETS = ["insurance", "construction", "cyber", "events", "news", "none"] as const;
export type CategoryTarget = (typeof CATEGORY_TARGETS)[number];
