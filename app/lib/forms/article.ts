/** The article form (create and edit). The picture is checked apart (required on create). */
import { z } from "zod";
import { ARTICLE_CATEGORIES } from "../practice";
import { parseFirmLocal, toFirmLocalInput } from "../firm-time";
import { hasNoNul, nulMessage, text } from "./fields";

export const ARTICLE_STATUS_LABELS = { draft: "Draft", scheduled: "Scheduled", published: "Published" } as const;
export type ArticleStatus = keyof typeof ARTICLE_STATUS_LABELS;

export const MAX_COPY = 200_000;
/** Summary, SEO title and SEO description: optional, plain text. */
export const SUMMARY_MAX = 300;
export const SEO_TITLE_MAX = 120;
export const SEO_DESCRIPTION_MAX = 300;
/** At most this many authors per article. */
export const MAX_AUTHORS = 20;
/** Repeated fields of the form (checkboxes), read as lists by formValues in the browser and the action. */
export const ARTICLE_LISTS = ["authors"] as const;

/** Visible text of an HTML fragment (rough; the server sanitises for real). */
export function htmlHasText(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, "")
      .replace(/&nbsp;|&#160;/g, " ")
      .trim().length > 0
  );
}

/** Optional plain text: trimmed, whitespace (line breaks too) made single spaces. */
const plainText = (label: string, max: number) => text(label, max, { optional: true }).transform((v) => v.replace(/\s+/g, " "));

/** Team member ids from the authors checkboxes (none: no authors), duplicates dropped, order kept. */
const authorIds = z
  .preprocess(
    (v) => (v == null ? [] : Array.isArray(v) ? (v as unknown[]) : [v]),
    z.array(z.string({ error: "Select the authors from the list of team members." })),
  )
  .refine((ids) => ids.every((id) => /^[1-9]\d{0,8}$/.test(id)), "Select the authors from the list of team members.")
  .transform((ids) => [...new Set(ids.map(Number))])
  .refine((ids) => ids.length <= MAX_AUTHORS, `At most ${MAX_AUTHORS} authors can be named.`);

const yesNo = (label: string) => z.enum(["yes", "no"], { error: `Choose whether this is ${label}.` }).transform((v) => v === "yes");

export const articleSchema = z
  .object({
    title: text("Title", 300),
    category: z.enum(ARTICLE_CATEGORIES, { error: "Choose a category." }),
    news: yesNo("news"),
    priority: z.preprocess((v) => (v === "on" || v === "true" || v === "yes" ? true : false), z.boolean()),
    copy: z
      .string({ error: "Article body is required." })
      .max(MAX_COPY, `The article body must be at most ${MAX_COPY.toLocaleString("en-CA")} characters.`)
      .refine(htmlHasText, "Article body is required.")
      .refine(hasNoNul, nulMessage("The article body")),
    status: z.preprocess(
      (v) => (v == null || v === "" ? "published" : v),
      z.enum(["draft", "scheduled", "published"], { error: "Choose draft, scheduled or published." }),
    ),
    publish_at: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string().max(40)),
    summary: plainText("Summary", SUMMARY_MAX),
    seo_title: plainText("SEO title", SEO_TITLE_MAX),
    seo_description: plainText("SEO description", SEO_DESCRIPTION_MAX),
    authors: authorIds,
  })
  // Pinning only means something for news (SPEC §4). A scheduled article needs a time to come (Toronto time).
  .transform((v, ctx) => {
    let publishAt: Date | null = null;
    if (v.status === "scheduled") {
      if (!v.publish_at.trim()) {
        ctx.addIssue({ code: "custom", path: ["publish_at"], message: "Publish time is required for a scheduled article." });
        return z.NEVER;
      }
      const parsed = parseFirmLocal(v.publish_at, "Publish time");
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", path: ["publish_at"], message: parsed.message });
        return z.NEVER;
      }
      if (parsed.date.getTime() <= Date.now()) {
        ctx.addIssue({ code: "custom", path: ["publish_at"], message: "Publish time must be in the future (or choose Published)." });
        return z.NEVER;
      }
      publishAt = parsed.date;
    }
    const { publish_at: _typed, ...rest } = v;
    return { ...rest, priority: v.news ? v.priority : false, publishAt };
  });

export type ArticleForm = z.infer<typeof articleSchema>;

export type ArticleFormValues = {
  title: string;
  category: string;
  news: "yes" | "no" | "";
  priority: boolean;
  copy: string;
  status: ArticleStatus;
  /** Toronto time, "YYYY-MM-DDTHH:MM" (datetime-local). */
  publish_at: string;
  summary: string;
  seo_title: string;
  seo_description: string;
  /** Team member ids (as the checkboxes send them). */
  authors: string[];
};

export const EMPTY_ARTICLE_VALUES: ArticleFormValues = {
  title: "",
  category: "",
  news: "",
  priority: false,
  copy: "",
  status: "published",
  publish_at: "",
  summary: "",
  seo_title: "",
  seo_description: "",
  authors: [],
};

function statusOf(x: unknown): ArticleStatus {
  return x === "draft" || x === "scheduled" || x === "published" ? x : "published";
}

export function articleValuesFromForm(v: Record<string, string | string[]>): ArticleFormValues {
  const s = (x: unknown, max: number) => (typeof x === "string" ? x.slice(0, max) : "");
  const news = s(v.news, 3);
  return {
    title: s(v.title, 600),
    category: s(v.category, 40),
    news: news === "yes" || news === "no" ? news : "",
    priority: v.priority === "on",
    copy: s(v.copy, MAX_COPY + 1000),
    status: statusOf(v.status),
    publish_at: s(v.publish_at, 40),
    summary: s(v.summary, SUMMARY_MAX + 200),
    seo_title: s(v.seo_title, SEO_TITLE_MAX + 200),
    seo_description: s(v.seo_description, SEO_DESCRIPTION_MAX + 200),
    authors: (Array.isArray(v.authors) ? v.authors : typeof v.authors === "string" ? [v.authors] : [])
      .filter((id) => /^\d{1,9}$/.test(id))
      .slice(0, 200),
  };
}

export function articleValuesFromRow(
  a: {
    title: string;
    category: string;
    news: boolean;
    priority: boolean;
    copy: string;
    status: string;
    published_at: Date | string | null;
    summary?: string;
    seo_title?: string;
    seo_description?: string;
  },
  authorIds: readonly number[] = [],
): ArticleFormValues {
  return {
    title: a.title,
    category: a.category.toLowerCase(),
    news: a.news ? "yes" : "no",
    priority: a.news && a.priority,
    copy: a.copy,
    status: statusOf(a.status),
    publish_at: a.status === "scheduled" ? toFirmLocalInput(a.published_at) : "",
    summary: a.summary ?? "",
    seo_title: a.seo_title ?? "",
    seo_description: a.seo_description ?? "",
    authors: authorIds.map(String),
  };
}
