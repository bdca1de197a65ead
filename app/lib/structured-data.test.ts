import { describe, expect, it } from "vitest";
import { articleJsonLd, breadcrumbJsonLd, firmTelephone, legalServiceJsonLd, openingHours, personJsonLd } from "./structured-data";
import { parseSocialImageFile, socialImagePath } from "./social";

describe("openingHours: the hours row's free text as 24-hour times", () => {
  it.each([
    ["9:00", "5:00", "09:00", "17:00"],
    ["8:30", "4:30", "08:30", "16:30"],
    ["9", "5", "09:00", "17:00"],
    ["09:00", "17:00", "09:00", "17:00"],
    ["9:00 AM", "5:00 PM", "09:00", "17:00"],
    ["9 a.m.", "6 p.m.", "09:00", "18:00"],
    ["8.30", "12:00", "08:30", "12:00"],
    ["10:00", "11:30", "10:00", "11:30"],
    ["12:00 PM", "8:00 PM", "12:00", "20:00"],
    [" 9:00 ", " 5:00 ", "09:00", "17:00"],
  ])("%j to %j -> %s to %s", (start, end, opens, closes) => {
    expect(openingHours(start, end)).toEqual({ opens, closes });
  });

  it.each([
    ["", "5:00"],
    ["nine", "five"],
    ["9:00", "closed"],
    ["25:00", "5:00"],
    ["9:75", "5:00"],
    ["13:00 PM", "5:00"],
    ["5:00 PM", "9:00 AM"],
  ])("%j to %j cannot be read: no opening hours rather than wrong ones", (start, end) => {
    expect(openingHours(start, end)).toBeNull();
  });
});

describe("builders", () => {
  const site = "https://firm.example/";

  it("writes the firm's phone in international form, with an extension when given", () => {
    expect(firmTelephone()).toBe("+1-416-555-0142");
    expect(firmTelephone(214)).toBe("+1-416-555-0142 ext. 214");
    expect(firmTelephone(null)).toBe("+1-416-555-0142");
  });

  it("LegalService: hours from the row, absolute URLs without a doubled slash", () => {
    const ld = legalServiceJsonLd(site, { start_time: "8:30", end_time: "4:00" });
    expect(ld.url).toBe("https://firm.example/");
    expect(ld.openingHoursSpecification).toEqual([
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
        opens: "08:30",
        closes: "16:00",
      },
    ]);
    expect(legalServiceJsonLd(site, { start_time: "by appointment", end_time: "" })).not.toHaveProperty("openingHoursSpecification");
  });

  it("Person: the photo only when there is one, the slug encoded", () => {
    const member = {
      slug: "Zoë-O'Neil",
      full_name: "Zoë O'Neil",
      title: "Partner",
      email: "z@x.example",
      extension: 12,
      img: "",
      AOP: ["Cyber"],
      area_details: ["Cyber claims"],
    };
    const ld = personJsonLd(site, member);
    expect(ld.url).toBe("https://firm.example/lawyer/Zo%C3%AB-O'Neil");
    expect(ld).not.toHaveProperty("image");
    expect(ld.knowsAbout).toEqual(["Cyber Security & Incident Response", "Cyber claims"]);
    expect(personJsonLd(site, { ...member, img: "abc-1.png" }).image).toBe("https://firm.example/og/team/abc-1.jpg");
  });

  it("Article: NewsArticle for news, BlogPosting otherwise; headline at most 110 characters", () => {
    const base = {
      slug: "T",
      title: "x".repeat(130),
      description: "d",
      category: "cyber",
      news: true,
      img: "",
      created_at: new Date("2024-03-01T12:00:00Z"),
      updated_at: "2024-03-02T08:00:00.000Z",
    };
    const news = articleJsonLd(site, base);
    expect(news["@type"]).toBe("NewsArticle");
    expect((news.headline as string).length).toBeLessThanOrEqual(110);
    expect(news.datePublished).toBe("2024-03-01T12:00:00.000Z");
    expect(news.dateModified).toBe("2024-03-02T08:00:00.000Z");
    expect(news.image).toEqual(["https://firm.example/og-default.jpg"]);
    expect(articleJsonLd(site, { ...base, news: false })["@type"]).toBe("BlogPosting");
  });

  it("Article author: its authors as Person (name, profile URL), else the firm", () => {
    const base = {
      slug: "T",
      title: "T",
      description: "d",
      category: "cyber",
      news: false,
      img: "",
      created_at: new Date("2024-03-01T12:00:00Z"),
      updated_at: "2024-03-02T08:00:00.000Z",
    };
    expect(articleJsonLd(site, base).author).toMatchObject({ "@type": "Organization" });
    expect(articleJsonLd(site, { ...base, authors: [] }).author).toMatchObject({ "@type": "Organization" });
    expect(
      articleJsonLd(site, {
        ...base,
        authors: [
          { slug: "Ada-Lovelace", full_name: "Ada Lovelace" },
          { slug: "José-Núñez", full_name: "José Núñez" },
        ],
      }).author,
    ).toEqual([
      { "@type": "Person", name: "Ada Lovelace", url: "https://firm.example/lawyer/Ada-Lovelace" },
      { "@type": "Person", name: "José Núñez", url: "https://firm.example/lawyer/Jos%C3%A9-N%C3%BA%C3%B1ez" },
    ]);
  });

  it("BreadcrumbList: positions from 1 in trail order", () => {
    const ld = breadcrumbJsonLd(site, [
      { name: "Home", path: "/" },
      { name: "Our Team", path: "/team" },
    ]);
    expect(ld.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: "https://firm.example/" },
      { "@type": "ListItem", position: 2, name: "Our Team", item: "https://firm.example/team" },
    ]);
  });
});

describe("link-preview picture paths", () => {
  it("map a stored picture to its 1200×630 JPEG, and no picture to the site default", () => {
    expect(socialImagePath("team", "0b1c-77.webp")).toBe("/og/team/0b1c-77.jpg");
    expect(socialImagePath("articles", "none")).toBe("/og-default.jpg");
    expect(socialImagePath("articles", "")).toBe("/og-default.jpg");
    expect(socialImagePath("team", "../x.jpg")).toBe("/og-default.jpg");
  });

  it("accept only a folder and a plain stem", () => {
    expect(parseSocialImageFile("team", "0b1c-77.jpg")).toEqual({ kind: "team", stem: "0b1c-77" });
    for (const [kind, file] of [
      ["other", "a.jpg"],
      ["team", "a.png"],
      ["team", "../a.jpg"],
      ["team", "A.jpg"],
      ["team", "a.jpg.html"],
      ["articles", `${"a".repeat(81)}.jpg`],
    ] as const) {
      expect(parseSocialImageFile(kind, file)).toBeNull();
    }
  });
});
