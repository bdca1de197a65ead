import { describe, expect, it } from "vitest";
import { articleSchema, articleValuesFromRow } from "./article";

const valid = { title: "Cyber: what now?", category: "cyber", news: "yes", priority: "on", copy: "<p>Body</p>" };

describe("article form schema", () => {
  it("accepts an article; pinned stays on for news", () => {
    expect(articleSchema.parse(valid)).toEqual({
      title: "Cyber: what now?",
      category: "cyber",
      news: true,
      priority: true,
      copy: "<p>Body</p>",
      status: "published",
      publishAt: null,
      summary: "",
      seo_title: "",
      seo_description: "",
      authors: [],
    });
  });
  it("forces pinned off when the article is not news", () => {
    expect(articleSchema.parse({ ...valid, news: "no" }).priority).toBe(false);
  });
  it("requires title, category, news yes/no and a body with text", () => {
    const r = articleSchema.safeParse({ title: " ", category: "", copy: "<p> </p>" });
    expect(r.error!.issues.map((i) => i.path[0]).sort()).toEqual(["category", "copy", "news", "title"]);
  });
  it("refuses unknown categories and over-long input without throwing", () => {
    expect(articleSchema.safeParse({ ...valid, category: "tax" }).success).toBe(false);
    expect(articleSchema.safeParse({ ...valid, title: "x".repeat(301) }).success).toBe(false);
    expect(articleSchema.safeParse({ ...valid, copy: "x".repeat(200_001) }).success).toBe(false);
    expect(() => articleSchema.safeParse({ title: [1], copy: {} })).not.toThrow();
  });
  it("shows a stored article in the form (category lower-case, pin only with news)", () => {
    expect(
      articleValuesFromRow({
        title: "T",
        category: "Cyber",
        news: false,
        priority: true,
        copy: "",
        status: "published",
        published_at: new Date(),
      }),
    ).toMatchObject({ category: "cyber", news: "no", priority: false });
  });

  it("a scheduled article needs a Toronto time to come; the skipped hour is refused", () => {
    const missing = articleSchema.safeParse({ ...valid, status: "scheduled", publish_at: "" });
    expect(missing.error!.issues[0]).toMatchObject({ path: ["publish_at"], message: "Publish time is required for a scheduled article." });
    const past = articleSchema.safeParse({ ...valid, status: "scheduled", publish_at: "2020-01-01T10:00" });
    expect(past.error!.issues[0].message).toBe("Publish time must be in the future (or choose Published).");
    const gap = articleSchema.safeParse({ ...valid, status: "scheduled", publish_at: "2099-03-08T02:15" });
    expect(gap.error!.issues[0].message).toMatch(/02:15 does not exist on that day in Toronto/);
    const ok = articleSchema.parse({ ...valid, status: "scheduled", publish_at: "2099-07-01T09:30" });
    expect(ok).toMatchObject({ status: "scheduled", publishAt: new Date("2099-07-01T13:30:00Z") });
    expect(articleSchema.parse({ ...valid, status: "draft", publish_at: "junk" })).toMatchObject({ status: "draft", publishAt: null });
  });
  it("summary, SEO title and SEO description: optional plain text, trimmed, one line, with limits", () => {
    const ok = articleSchema.parse({
      ...valid,
      summary: "  A short\n\nsummary. ",
      seo_title: " Breach notice rules ",
      seo_description: "What changes\tnow.",
    });
    expect(ok).toMatchObject({ summary: "A short summary.", seo_title: "Breach notice rules", seo_description: "What changes now." });
    const long = articleSchema.safeParse({
      ...valid,
      summary: "s".repeat(301),
      seo_title: "t".repeat(121),
      seo_description: "d".repeat(301),
    });
    expect(Object.fromEntries(long.error!.issues.map((i) => [i.path[0], i.message]))).toEqual({
      summary: "Summary must be at most 300 characters.",
      seo_title: "SEO title must be at most 120 characters.",
      seo_description: "SEO description must be at most 300 characters.",
    });
    expect(articleSchema.safeParse({ ...valid, summary: "a\u0000b" }).error!.issues[0].path).toEqual(["summary"]);
  });
  it("authors: member ids from the checkboxes, duplicates dropped, order kept; anything else refused with one message", () => {
    expect(articleSchema.parse({ ...valid, authors: ["3", "1", "3"] }).authors).toEqual([3, 1]);
    expect(articleSchema.parse({ ...valid, authors: "7" }).authors).toEqual([7]);
    for (const bad of [["0"], ["-1"], ["abc"], ["1e3"], ["9999999999"], [""]]) {
      expect(articleSchema.safeParse({ ...valid, authors: bad }).error!.issues[0]).toMatchObject({
        path: ["authors"],
        message: "Select the authors from the list of team members.",
      });
    }
    const many = Array.from({ length: 21 }, (_, i) => String(i + 1));
    expect(articleSchema.safeParse({ ...valid, authors: many }).error!.issues[0]).toMatchObject({
      path: ["authors"],
      message: "At most 20 authors can be named.",
    });
    expect(
      articleValuesFromRow(
        { title: "T", category: "cyber", news: false, priority: false, copy: "", status: "draft", published_at: null, summary: "S" },
        [4, 2],
      ),
    ).toMatchObject({ summary: "S", seo_title: "", authors: ["4", "2"] });
  });
  it("shows a scheduled article's time in Toronto time", () => {
    expect(
      articleValuesFromRow({
        title: "T",
        category: "cyber",
        news: false,
        priority: false,
        copy: "",
        status: "scheduled",
        published_at: new Date("2099-01-10T15:00:00Z"),
      }),
    ).toMatchObject({ status: "scheduled", publish_at: "2099-01-10T10:00" });
  });
});
