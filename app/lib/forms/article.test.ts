import { describe, expect, it } from "vitest";
import { articleSchema, articleValuesFromRow } from "./article";

const valid = { title: "Cyber: what now?", category: "cyber", news: "yes", priority: "on", copy: "<p>Body</p>" };

describe("article form schema", () => {
  it("accepts an article; pinned stays on for news", () => {
    expect(articleSchema.parse(valid)).toEqual({ title: "Cyber: what now?", category: "cyber", news: true, priority: true, copy: "<p>Body</p>" });
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
    expect(articleValuesFromRow({ title: "T", category: "Cyber", news: false, priority: true, copy: "" })).toMatchObject({ category: "cyber", news: "no", priority: false });
  });
});
