/** The article form (create and edit). The picture is checked apart (required on create). */
import { z } from "zod";
import { ARTICLE_CATEGORIES } from "../practice";
import { hasNoNul, nulMessage, text } from "./fields";

export const MAX_COPY = 200_000;

/** Visible text of an HTML fragment (rough; the server sanitises for real). */
export function htmlHasText(html: string): boolean {
  return html.replace(/<[^>]*>/g, "").replace(/&nbsp;|&#160;/g, " ").trim().length > 0;
}

const yesNo = (label: string) =>
  z.enum(["yes", "no"], { error: `Choose whether this is ${label}.` }).transform((v) => v === "yes");

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
  })
  // Pinning only means something for news (SPEC §4).
  .transform((v) => ({ ...v, priority: v.news ? v.priority : false }));

export type ArticleForm = z.infer<typeof articleSchema>;

export type ArticleFormValues = { title: string; category: string; news: "yes" | "no" | ""; priority: boolean; copy: string };

export const EMPTY_ARTICLE_VALUES: ArticleFormValues = { title: "", category: "", news: "", priority: false, copy: "" };

export function articleValuesFromForm(v: Record<string, string | string[]>): ArticleFormValues {
  const s = (x: unknown, max: number) => (typeof x === "string" ? x.slice(0, max) : "");
  const news = s(v.news, 3);
  return {
    title: s(v.title, 600),
    category: s(v.category, 40),
    news: news === "yes" || news === "no" ? news : "",
    priority: v.priority === "on",
    copy: s(v.copy, MAX_COPY + 1000),
  };
}

export function articleValuesFromRow(a: { title: string; category: string; news: boolean; priority: boolean; copy: string }): ArticleFormValues {
  return { title: a.title, category: a.category.toLowerCase(), news: a.news ? "yes" : "no", priority: a.news && a.priority, copy: a.copy };
}
