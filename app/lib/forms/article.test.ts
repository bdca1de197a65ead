import { describe, expect, it } from "vitest";
import { articleSchema, articleValuesFromRow } from "./article";

const valid = { title: "Cyber: what now?", category: "cyber", news: "yes", priority: "on", copy: "<p>Body</p>" };

describe("article form schema", () => {
  it("accepts an article; pinned stays on for news", () => {
    expect(articleSchema.parse(valid)).toEqual({ title: "Cyber: what now?", category: "cyber", news: true, priority: true, copy: "<p>Body</p>", status: "published", publishAt: null });
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
    expect(articleValuesFromRow({ title: "T", category: "Cyber", news: false, priority: true, copy: "", status: "published", published_at: new Date() })).toMatchObject({ category: "cyber", news: "no", priority: false });
  });

  it("a scheduled article needs a Toronto time to come; the skipped hour is refused", () => {
    const missing = articleSchema.safeParse({ ...valid, status: "scheduled", publish_at: "" });
    expect(missing.error!.issues[0]).toMatchObject({ path: ["publish_at"], message: "Publish time is required for a scheduled article." });
    const past = articleSchema.safeParse({ ...valid, status: "scheduled", publish_at: "2020-01-01T10:00" });
    expect(past.error!.issues[0]!.message).toBe("Publish time must be in the future (or choose Published).");
    const gap = articleSchema.safeParse({ ...valid, status: "scheduled", publish_at: "2099-03-08T02:15" });
    expect(gap.error!.issues[0]!.message).toMatch(/02:15 does not exist on that day in Toronto/);
    const ok = articleSchema.parse({ ...valid, status: "scheduled", publish_at: "2099-07-01T09:30" });
    expect(ok).toMatchObject({ status: "scheduled", publishAt: new Date("2099-07-01T13:30:00Z") });
    expect(articleSchema.parse({ ...valid, status: "draft", publish_at: "junk" })).toMatchObject({ status: "draft", publishAt: null });
  });
  it("shows a scheduled article's time in Toronto time", () => {
    expect(articleValuesFromRow({ title: "T", category: "cyber", news: false, priority: false, copy: "", status: "scheduled", published_at: new Date("2099-01-10T15:00:00Z") })).toMatchObject({ status: "scheduled", publish_at: "2099-01-10T10:00" });
  });
});
