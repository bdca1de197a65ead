import { describe, expect, it } from "vitest";
import {
  insightsHref,
  firstName,
  loadingTextFor,
  pageMeta,
  parseArticleFilter,
  parsePracticeTab,
  practiceAreaOfPath,
  practiceHref,
  shortDescription,
  weekdayHoursText,
} from "./site";

describe("insights URL state", () => {
  it("reads the filter from ?category=, falling back to all", () => {
    expect(parseArticleFilter("cyber")).toBe("cyber");
    expect(parseArticleFilter("NEWS")).toBe("news");
    expect(parseArticleFilter(null)).toBe("all");
    expect(parseArticleFilter("<script>")).toBe("all");
    expect(parseArticleFilter("all")).toBe("all");
  });
  it("writes links that keep the filter; page 1 and all are left out", () => {
    expect(insightsHref("all")).toBe("/insights");
    expect(insightsHref("all", 2)).toBe("/insights?page=2");
    expect(insightsHref("cyber")).toBe("/insights?category=cyber");
    expect(insightsHref("cyber", 2)).toBe("/insights?category=cyber&page=2");
    expect(insightsHref("all", 1, "Ada-Lovelace")).toBe("/insights?author=Ada-Lovelace");
    expect(insightsHref("cyber", 3, "José-Núñez")).toBe("/insights?author=Jos%C3%A9-N%C3%BA%C3%B1ez&category=cyber&page=3");
    expect(firstName("  Ada  Lovelace ")).toBe("Ada");
  });
});

describe("practice tabs", () => {
  it("reads the tab, falling back to overview", () => {
    expect(parsePracticeTab("team")).toBe("team");
    expect(parsePracticeTab("Insights")).toBe("insights");
    expect(parsePracticeTab("x")).toBe("overview");
    expect(parsePracticeTab(undefined)).toBe("overview");
  });
  it("links tabs and insight pages", () => {
    expect(practiceHref("/cyber", "overview")).toBe("/cyber");
    expect(practiceHref("/cyber", "team")).toBe("/cyber?tab=team");
    expect(practiceHref("/cyber", "insights", 2)).toBe("/cyber?tab=insights&page=2");
    expect(practiceHref("/cyber", "team", 2)).toBe("/cyber?tab=team");
  });
  it("finds the area of a path", () => {
    expect(practiceAreaOfPath("/cyber")).toBe("cyber");
    expect(practiceAreaOfPath("/Construction")).toBe("construction");
    expect(practiceAreaOfPath("/team")).toBeUndefined();
  });
});

describe("texts", () => {
  it("writes the weekday opening hours", () => {
    expect(weekdayHoursText({ start_time: "9:00", end_time: "5:00" })).toBe("Monday to Friday, 9:00 to 5:00");
    expect(weekdayHoursText({ start_time: " 8:30 ", end_time: "" })).toBe("Monday to Friday, 8:30 to 5:00");
  });
  it("chooses the spec's loading text for the page being loaded", () => {
    expect(loadingTextFor({ pathname: "/team", search: "" })).toBe("Loading team members...");
    expect(loadingTextFor({ pathname: "/insights", search: "?page=2" })).toBe("Loading articles...");
    expect(loadingTextFor({ pathname: "/post/Some-Title", search: "" })).toBe("Loading article...");
    expect(loadingTextFor({ pathname: "/lawyer/Jane-Doe", search: "" })).toBe("Loading...");
    expect(loadingTextFor({ pathname: "/cyber", search: "?tab=team" })).toBe("Loading team members...");
    expect(loadingTextFor({ pathname: "/cyber", search: "?tab=insights" })).toBe("Loading articles...");
    expect(loadingTextFor({ pathname: "/cyber", search: "" })).toBe("Loading...");
    expect(loadingTextFor({ pathname: "/", search: "" })).toBeNull();
    expect(loadingTextFor({ pathname: "/disclaimer", search: "" })).toBeNull();
  });
  it("makes meta tags with a canonical link", () => {
    const tags = pageMeta({ title: "T", description: "D", siteUrl: "https://x.example/", path: "/team" });
    expect(tags).toContainEqual({ title: "T" });
    expect(tags).toContainEqual({ name: "description", content: "D" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://x.example/team" });
  });
  it("shortens descriptions on a word boundary", () => {
    expect(shortDescription("a  b")).toBe("a b");
    const long = "word ".repeat(60);
    const short = shortDescription(long, 100);
    expect(short.length).toBeLessThanOrEqual(100);
    expect(short.endsWith("word…")).toBe(true);
  });
});
