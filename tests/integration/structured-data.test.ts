/**
 * Search and sharing on the public pages, through the real loaders and meta
 * functions on a seeded database: unique titles and descriptions, canonical
 * URL, Open Graph and Twitter card tags with a 1200×630 picture, the RSS link,
 * and JSON-LD checked against the schema.org types (required and known
 * properties, nested types, absolute URLs, ISO dates). Also the picture route
 * that makes the 1200×630 JPEG.
 */
import { testContext, guarded } from "../support/route-call";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { getArticleBySlug } from "~/.server/db/articles";
import { seedDemoContent } from "~/.server/db/seed";
import { getTeamMemberBySlug } from "~/.server/db/team";
import { deleteImage } from "~/.server/pictures/images";
import { getStorage } from "~/.server/storage/storage";
import * as accessibility from "~/routes/public/accessibility";
import * as copyright from "~/routes/public/copyright";
import * as contact from "~/routes/public/contact";
import * as privacy from "~/routes/public/privacy";
import * as disclaimer from "~/routes/public/disclaimer";
import * as home from "~/routes/public/home";
import * as insights from "~/routes/public/insights";
import * as lawyer from "~/routes/public/lawyer";
import * as post from "~/routes/public/post";
import * as practice from "~/routes/public/practice";
import * as team from "~/routes/public/team";
import { loader as ogImage } from "~/routes/seo/og-image";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";

setUpTestDatabase();
const SITE = "http://localhost:3000";

beforeAll(async () => {
  await seedDemoContent();
});

type Tag = Record<string, unknown>;
type PageModule = { loader?: (args: never) => unknown; meta: (args: never) => Tag[] };

/** Runs a page's loader and meta as React Router does (the layout's data carries the site URL). */
async function render(mod: PageModule, url: string, params: Record<string, string> = {}) {
  const request = new Request(SITE + url);
  const data = mod.loader ? await guarded(mod.loader, { request, params, context: testContext() }) : undefined;
  const location = { pathname: new URL(request.url).pathname, search: new URL(request.url).search, hash: "", state: null, key: "default" };
  const matches = [
    { id: "root", loaderData: undefined },
    { id: "routes/public/layout", loaderData: { year: 2026, siteUrl: SITE } },
    { id: "page", loaderData: data },
  ];
  const tags = mod.meta({ loaderData: data, params, location, matches } as never);
  return { data, tags };
}

const content = (tags: Tag[], key: string, value: string) => tags.find((t) => t[key] === value)?.content as string | undefined;
const jsonLd = (tags: Tag[]) => tags.filter((t) => "script:ld+json" in t).map((t) => t["script:ld+json"] as Node);

const PAGES: Array<[string, PageModule, string, Record<string, string>?]> = [
  ["home", home, "/"],
  ["team", team, "/team"],
  ["lawyer", lawyer, "/lawyer/Eleanor-Whitcombe", { slug: "Eleanor-Whitcombe" }],
  ["lawyer without photo", lawyer, "/lawyer/Patrick-Lindqvist", { slug: "Patrick-Lindqvist" }],
  ["insights", insights, "/insights"],
  ["insights, cyber", insights, "/insights?category=cyber"],
  ["insights, page 2", insights, "/insights?page=2"],
  ["post", post, "/post/Firm-Expands-Cyber-Incident-Response-Team", { slug: "Firm-Expands-Cyber-Incident-Response-Team" }],
  ["other post", post, "/post/Delay-Claims-Proving-Critical-Path-Impact", { slug: "Delay-Claims-Proving-Critical-Path-Impact" }],
  ["insurance", practice, "/insurance"],
  ["construction", practice, "/construction"],
  ["cyber", practice, "/cyber"],
  ["cyber team tab", practice, "/cyber?tab=team"],
  ["cyber insights tab", practice, "/cyber?tab=insights"],
  ["disclaimer", disclaimer, "/disclaimer"],
  ["accessibility", accessibility, "/accessibility"],
  ["copyright", copyright, "/copyright"],
  ["contact", contact, "/contact"],
  ["privacy", privacy, "/privacy"],
];

describe("every public page's head", () => {
  it("has a unique title and a unique description of a sensible length", async () => {
    const titles = new Map<string, string>();
    const descriptions = new Map<string, string>();
    for (const [name, mod, url, params] of PAGES) {
      const { tags } = await render(mod, url, params);
      const title = tags.find((t) => "title" in t)?.title as string;
      const description = content(tags, "name", "description")!;
      expect(title, name).toBeTruthy();
      expect(description.length, name).toBeGreaterThanOrEqual(50);
      expect(description.length, name).toBeLessThanOrEqual(160);
      expect(titles.get(title), `${name} repeats the title of ${titles.get(title)}`).toBeUndefined();
      titles.set(title, name);
      // Pages of one list (filters, tabs, later pages) may share the list's description.
      const family = url.split("?")[0];
      const owner = descriptions.get(description);
      expect(owner === undefined || owner === family, `${name} repeats the description of ${owner}`).toBe(true);
      descriptions.set(description, family);
    }
  });

  it.each(PAGES)("%s: canonical URL, Open Graph, Twitter card and the RSS link, all absolute", async (_name, mod, url, params) => {
    const { tags } = await render(mod, url, params);
    const canonical = tags.find((t) => t.rel === "canonical")?.href as string;
    expect(canonical.startsWith(`${SITE}/`)).toBe(true);
    expect(new URL(canonical).pathname).toBe(new URL(SITE + url).pathname);
    expect(content(tags, "property", "og:url")).toBe(canonical);
    expect(content(tags, "property", "og:title")).toBe(tags.find((t) => "title" in t)?.title);
    expect(content(tags, "property", "og:description")).toBe(content(tags, "name", "description"));
    expect(content(tags, "property", "og:site_name")).toBe("Harrow Kline LLP");
    expect(["website", "article", "profile"]).toContain(content(tags, "property", "og:type"));
    const image = content(tags, "property", "og:image")!;
    expect(image).toMatch(/^http:\/\/localhost:3000\/(og-default\.jpg|og\/(team|articles)\/[a-z0-9-]+\.jpg)$/);
    expect(content(tags, "property", "og:image:width")).toBe("1200");
    expect(content(tags, "property", "og:image:height")).toBe("630");
    expect(content(tags, "property", "og:image:alt")).toBeTruthy();
    expect(content(tags, "name", "twitter:card")).toBe("summary_large_image");
    expect(content(tags, "name", "twitter:image")).toBe(image);
    expect(content(tags, "name", "twitter:title")).toBeTruthy();
    expect(content(tags, "name", "twitter:description")).toBeTruthy();
    const feed = tags.find((t) => t.rel === "alternate" && t.type === "application/rss+xml");
    expect(feed).toMatchObject({ href: `${SITE}/insights/feed.xml`, title: expect.stringMatching(/News & Insights/) });
  });

  it("shares a lawyer's photo on lawyer pages, an article's picture on posts, the site default elsewhere", async () => {
    const eleanor = await getTeamMemberBySlug("Eleanor-Whitcombe");
    const { tags: lawyerTags } = await render(lawyer, "/lawyer/Eleanor-Whitcombe", { slug: "Eleanor-Whitcombe" });
    expect(content(lawyerTags, "property", "og:image")).toBe(`${SITE}/og/team/${eleanor!.img.replace(/\.\w+$/, "")}.jpg`);
    expect(content(lawyerTags, "property", "og:type")).toBe("profile");
    const { tags: noPhoto } = await render(lawyer, "/lawyer/Patrick-Lindqvist", { slug: "Patrick-Lindqvist" });
    expect(content(noPhoto, "property", "og:image")).toBe(`${SITE}/og-default.jpg`);
    const article = await getArticleBySlug("Firm-Expands-Cyber-Incident-Response-Team");
    const { tags: postTags } = await render(post, "/post/Firm-Expands-Cyber-Incident-Response-Team", {
      slug: "Firm-Expands-Cyber-Incident-Response-Team",
    });
    expect(content(postTags, "property", "og:image")).toBe(`${SITE}/og/articles/${article!.img.replace(/\.\w+$/, "")}.jpg`);
    expect(content(postTags, "property", "og:type")).toBe("article");
    const { tags: homeTags } = await render(home, "/");
    expect(content(homeTags, "property", "og:image")).toBe(`${SITE}/og-default.jpg`);
  });
});

// ---- JSON-LD against schema.org ----

type Node = { "@context"?: string; "@type": string; [key: string]: unknown };
type Kind = "Text" | "URL" | "DateTime" | "Date" | "Time" | "Integer" | "Email" | "Telephone" | "DayOfWeek" | string[];

/**
 * The schema.org properties used here, by type, with their expected value
 * types (schema.org/{Type}); properties in `required` must be present
 * (schema.org's expectations and Google's rich-result requirements).
 */
const SCHEMA: Record<string, { parent?: string; required?: string[]; props: Record<string, Kind> }> = {
  Thing: { props: { "@id": "URL", name: "Text", description: "Text", url: "URL", image: ["URL", "ImageObject"] } },
  Organization: {
    parent: "Thing",
    props: {
      address: ["PostalAddress"],
      telephone: "Telephone",
      faxNumber: "Telephone",
      email: "Email",
      logo: ["URL", "ImageObject"],
      areaServed: ["AdministrativeArea", "Text"],
      knowsAbout: "Text",
      hasOfferCatalog: ["OfferCatalog"],
    },
  },
  LegalService: {
    parent: "Organization", // LocalBusiness: both Organization and Place
    required: ["name", "address", "telephone", "url"],
    props: { faxNumber: "Telephone", openingHoursSpecification: ["OpeningHoursSpecification"] },
  },
  // A lawyer page's Person has more (jobTitle, worksFor, telephone, email: checked in its test); an article's author is name and url.
  Person: {
    parent: "Thing",
    required: ["name", "url"],
    props: {
      jobTitle: "Text",
      worksFor: ["LegalService", "Organization"],
      telephone: "Telephone",
      email: "Email",
      knowsAbout: "Text",
      knowsLanguage: ["Language", "Text"],
      alumniOf: ["EducationalOrganization", "Organization"],
      memberOf: ["Organization"],
      hasCredential: ["EducationalOccupationalCredential"],
    },
  },
  // schema.org/Language: a name, and the BCP 47 tag as alternateName.
  Language: { parent: "Thing", required: ["name"], props: { alternateName: "Text" } },
  EducationalOrganization: { parent: "Organization", required: ["name"], props: {} },
  EducationalOccupationalCredential: {
    parent: "CreativeWork",
    required: ["name", "credentialCategory"],
    props: {
      credentialCategory: "Text",
      recognizedBy: ["Organization"],
      validIn: ["AdministrativeArea"],
      dateCreated: "Date",
    },
  },
  CreativeWork: {
    parent: "Thing",
    props: {
      headline: "Text",
      datePublished: "DateTime",
      dateModified: "DateTime",
      author: ["Organization", "Person"],
      publisher: ["Organization"],
      mainEntityOfPage: ["WebPage", "URL"],
      inLanguage: "Text",
    },
  },
  Article: { parent: "CreativeWork", props: { articleSection: "Text" } },
  NewsArticle: {
    parent: "Article",
    required: ["headline", "datePublished", "dateModified", "image", "author", "publisher", "mainEntityOfPage"],
    props: {},
  },
  BlogPosting: {
    parent: "Article",
    required: ["headline", "datePublished", "dateModified", "image", "author", "publisher", "mainEntityOfPage"],
    props: {},
  },
  WebPage: { parent: "CreativeWork", required: ["@id"], props: {} },
  ImageObject: { parent: "CreativeWork", required: ["url"], props: { width: "Integer", height: "Integer" } },
  PostalAddress: {
    parent: "Thing",
    required: ["streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"],
    props: { streetAddress: "Text", addressLocality: "Text", addressRegion: "Text", postalCode: "Text", addressCountry: "Text" },
  },
  OpeningHoursSpecification: {
    parent: "Thing",
    required: ["dayOfWeek", "opens", "closes"],
    props: { dayOfWeek: "DayOfWeek", opens: "Time", closes: "Time" },
  },
  AdministrativeArea: { parent: "Thing", required: ["name"], props: {} },
  OfferCatalog: { parent: "Thing", required: ["itemListElement"], props: { itemListElement: ["Offer"] } },
  Offer: { parent: "Thing", required: ["itemOffered"], props: { itemOffered: ["Service"] } },
  Service: { parent: "Thing", required: ["name"], props: {} },
  BreadcrumbList: { parent: "Thing", required: ["itemListElement"], props: { itemListElement: ["ListItem"] } },
  ListItem: { parent: "Thing", required: ["position", "name", "item"], props: { position: "Integer", item: "URL" } },
};

function propsOf(type: string): Record<string, Kind> {
  const spec = SCHEMA[type];
  if (!spec) return {};
  return { ...(spec.parent ? propsOf(spec.parent) : {}), ...spec.props };
}

function isA(type: string, wanted: string): boolean {
  for (let t: string | undefined = type; t; t = SCHEMA[t]?.parent) if (t === wanted) return true;
  return false;
}

function checkValue(kind: Kind, value: unknown, where: string, errors: string[]) {
  if (Array.isArray(kind)) {
    if (typeof value === "string" && kind.includes("URL")) return checkValue("URL", value, where, errors);
    if (typeof value === "string" && kind.includes("Text")) return;
    if (!value || typeof value !== "object" || !("@type" in value))
      return void errors.push(`${where}: expected ${kind.join(" or ")}, got ${JSON.stringify(value)}`);
    const node = value as Node;
    if (!kind.some((k) => isA(node["@type"], k))) errors.push(`${where}: @type ${node["@type"]} is not ${kind.join(" or ")}`);
    return validateNode(node, where, errors);
  }
  const ok = {
    Text: () => typeof value === "string" && value.trim().length > 0,
    URL: () => {
      if (typeof value !== "string") return false;
      try {
        const u = new URL(value);
        return (u.protocol === "https:" || u.protocol === "http:") && value.startsWith(SITE);
      } catch {
        return false;
      }
    },
    DateTime: () =>
      typeof value === "string" &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
      !Number.isNaN(Date.parse(value)),
    Date: () => typeof value === "string" && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(value),
    Time: () => typeof value === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(value),
    Integer: () => Number.isInteger(value),
    Email: () => typeof value === "string" && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
    Telephone: () => typeof value === "string" && /^\+1-\d{3}-\d{3}-\d{4}( ext\. \d+)?$/.test(value),
    DayOfWeek: () => ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].includes(value as string),
  }[kind];
  if (!ok) return void errors.push(`${where}: unknown kind ${kind}`);
  if (!ok()) errors.push(`${where}: not a valid ${kind}: ${JSON.stringify(value)}`);
}

function validateNode(node: Node, where: string, errors: string[]) {
  const type = node["@type"];
  if (!SCHEMA[type]) return void errors.push(`${where}: unknown @type ${type}`);
  const props = propsOf(type);
  for (const name of SCHEMA[type].required ?? []) if (node[name] === undefined) errors.push(`${where}: ${type} lacks ${name}`);
  for (const [name, value] of Object.entries(node)) {
    if (name === "@type" || name === "@context") continue;
    const kind = props[name];
    if (!kind) {
      errors.push(`${where}: ${name} is not a property of ${type}`);
      continue;
    }
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0) errors.push(`${where}.${name}: empty list`);
    values.forEach((v, i) => checkValue(kind, v, `${where}.${name}${Array.isArray(value) ? `[${i}]` : ""}`, errors));
  }
}

function validate(blocks: Node[]): string[] {
  const errors: string[] = [];
  blocks.forEach((block, i) => {
    if (block["@context"] !== "https://schema.org") errors.push(`block ${i}: @context must be https://schema.org`);
    validateNode(block, `block ${i} (${block["@type"]})`, errors);
  });
  return errors;
}

describe("JSON-LD", () => {
  it("the validator catches what it should (a missing property, a wrong type, a bad date, a relative URL, a made-up property)", () => {
    const person = {
      "@context": "https://schema.org",
      "@type": "Person",
      name: "A",
      jobTitle: "Partner",
      email: "a@b.example",
      telephone: "+1-416-555-0142",
      url: `${SITE}/x`,
    };
    expect(validate([person as Node])).toEqual([]);
    const { url: _url, ...noUrl } = person;
    expect(validate([noUrl as Node])).toEqual([expect.stringMatching(/lacks url/)]);
    const broken = {
      ...person,
      worksFor: {
        "@type": "PostalAddress",
        streetAddress: "1",
        addressLocality: "T",
        addressRegion: "ON",
        postalCode: "M",
        addressCountry: "CA",
      },
      url: "/lawyer/x",
      birthPlace: "Toronto",
    };
    const errors = validate([broken]);
    expect(errors.join("\n")).toMatch(/PostalAddress is not LegalService or Organization/);
    expect(errors.join("\n")).toMatch(/not a valid URL/);
    expect(errors.join("\n")).toMatch(/birthPlace is not a property of Person/);
    const article = { "@context": "https://schema.org", "@type": "BlogPosting", headline: "h", datePublished: "Monday, March 3, 2025" };
    expect(validate([article as Node]).join("\n")).toMatch(/not a valid DateTime/);
  });

  it("home: a LegalService with address, phone, fax, e-mail, Monday-to-Friday hours from the hours row and the practice areas", async () => {
    const { tags } = await render(home, "/");
    const blocks = jsonLd(tags);
    expect(validate(blocks)).toEqual([]);
    const firm = blocks.find((b) => b["@type"] === "LegalService")!;
    expect(firm).toMatchObject({
      name: "Harrow Kline LLP",
      url: `${SITE}/`,
      telephone: "+1-416-555-0142",
      faxNumber: "+1-416-555-0143",
      email: "info@harrowkline.example",
      address: { "@type": "PostalAddress", addressLocality: "Toronto", addressRegion: "ON", addressCountry: "CA" },
      openingHoursSpecification: [{ dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], opens: "09:00", closes: "17:00" }],
      knowsAbout: ["Insurance Defence", "Construction Disputes", "Cyber Security & Incident Response"],
    });
    const offers = (firm.hasOfferCatalog as { itemListElement: { itemOffered: { url: string } }[] }).itemListElement;
    expect(offers.map((o) => o.itemOffered.url)).toEqual([`${SITE}/insurance`, `${SITE}/construction`, `${SITE}/cyber`]);
  });

  it("home: the hours follow the row after staff change it", async () => {
    const { updateOfficeHours } = await import("~/.server/db/office-hours");
    await updateOfficeHours({ start_time: "8:30", end_time: "4:30" }, TEST_ACTOR);
    const firm = jsonLd((await render(home, "/")).tags)[0];
    expect(firm.openingHoursSpecification).toMatchObject([{ opens: "08:30", closes: "16:30" }]);
    await updateOfficeHours({ start_time: "9:00", end_time: "5:00" }, TEST_ACTOR);
  });

  it("lawyer: a Person working for the firm, and the trail Home > Our Team > name", async () => {
    const { tags } = await render(lawyer, "/lawyer/Eleanor-Whitcombe", { slug: "Eleanor-Whitcombe" });
    const blocks = jsonLd(tags);
    expect(validate(blocks)).toEqual([]);
    const person = blocks.find((b) => b["@type"] === "Person")!;
    const member = (await getTeamMemberBySlug("Eleanor-Whitcombe"))!;
    expect(person).toMatchObject({
      name: "Eleanor Whitcombe",
      jobTitle: "Managing Partner",
      worksFor: { "@type": "LegalService", name: "Harrow Kline LLP" },
      telephone: `+1-416-555-0142 ext. ${member.extension}`,
      email: member.email,
      url: `${SITE}/lawyer/Eleanor-Whitcombe`,
      image: expect.stringMatching(/^http:\/\/localhost:3000\/og\/team\/[a-z0-9-]+\.jpg$/),
    });
    const trail = blocks.find((b) => b["@type"] === "BreadcrumbList")!;
    expect((trail.itemListElement as { name: string }[]).map((i) => i.name)).toEqual(["Home", "Our Team", "Eleanor Whitcombe"]);
    // Without a photo: no image rather than a placeholder.
    const noPhoto = jsonLd((await render(lawyer, "/lawyer/Patrick-Lindqvist", { slug: "Patrick-Lindqvist" })).tags);
    expect(validate(noPhoto)).toEqual([]);
    expect(noPhoto.find((b) => b["@type"] === "Person")).not.toHaveProperty("image");
  });

  it("lawyer: the Person's languages, schools, memberships and credentials (bar admissions, the LSO certification, degrees)", async () => {
    const { tags } = await render(lawyer, "/lawyer/Sofia-Marchetti", { slug: "Sofia-Marchetti" });
    const blocks = jsonLd(tags);
    expect(validate(blocks)).toEqual([]);
    const person = blocks.find((b) => b["@type"] === "Person")!;
    expect(person.knowsLanguage).toEqual([
      { "@type": "Language", name: "English", alternateName: "en" },
      { "@type": "Language", name: "French", alternateName: "fr" },
      { "@type": "Language", name: "Italian", alternateName: "it" },
    ]);
    expect(person.alumniOf).toEqual([
      { "@type": "EducationalOrganization", name: "University of Toronto" },
      { "@type": "EducationalOrganization", name: "University of Waterloo" },
    ]);
    expect(person.memberOf).toEqual([
      { "@type": "Organization", name: "Canadian College of Construction Lawyers" },
      { "@type": "Organization", name: "Ontario Bar Association, Construction and Infrastructure Law Section" },
    ]);
    const credentials = person.hasCredential as Node[];
    const ofCategory = (category: string) => credentials.filter((c) => c.credentialCategory === category);
    const lso = { "@type": "Organization", name: "Law Society of Ontario" };
    // The bar admissions (where, since when, and the law society that admits where the site knows it), the LSO certification, the degrees.
    expect(ofCategory("license")).toEqual([
      expect.objectContaining({ validIn: { "@type": "AdministrativeArea", name: "Ontario" }, dateCreated: "2008", recognizedBy: lso }),
      expect.objectContaining({ validIn: { "@type": "AdministrativeArea", name: "British Columbia" }, dateCreated: "2014" }),
    ]);
    expect(ofCategory("certification")).toEqual([
      expect.objectContaining({ name: "Certified Specialist in Construction Law", dateCreated: "2017", recognizedBy: lso }),
    ]);
    expect(ofCategory("degree")).toContainEqual(
      expect.objectContaining({ name: "J.D.", recognizedBy: { "@type": "EducationalOrganization", name: "University of Toronto" } }),
    );
    expect(credentials).toHaveLength(5);
    // A language typed under "Other languages" is a name without a tag.
    const marcus = jsonLd((await render(lawyer, "/lawyer/Marcus-Adeyemi", { slug: "Marcus-Adeyemi" })).tags);
    expect(validate(marcus)).toEqual([]);
    expect(marcus.find((b) => b["@type"] === "Person")!.knowsLanguage).toEqual([
      { "@type": "Language", name: "English", alternateName: "en" },
      { "@type": "Language", name: "Yoruba" },
    ]);
    // Nothing recorded: none of the four properties (no empty lists).
    const patrick = jsonLd((await render(lawyer, "/lawyer/Patrick-Lindqvist", { slug: "Patrick-Lindqvist" })).tags).find(
      (b) => b["@type"] === "Person",
    )!;
    expect(patrick).not.toHaveProperty("memberOf");
    expect(patrick).not.toHaveProperty(
      "hasCredential",
      expect.arrayContaining([expect.objectContaining({ credentialCategory: "license" })]),
    );
  });

  it("posts: NewsArticle for news and BlogPosting otherwise, with ISO dates, and the trail Home > News & Insights > title", async () => {
    const news = jsonLd(
      (await render(post, "/post/Firm-Expands-Cyber-Incident-Response-Team", { slug: "Firm-Expands-Cyber-Incident-Response-Team" })).tags,
    );
    expect(validate(news)).toEqual([]);
    const article = (await getArticleBySlug("Firm-Expands-Cyber-Incident-Response-Team"))!;
    expect(news[0]).toMatchObject({
      "@type": "NewsArticle",
      headline: "Firm Expands Cyber Incident Response Team",
      datePublished: article.created_at.toISOString(),
      dateModified: article.updated_at.toISOString(),
      mainEntityOfPage: { "@type": "WebPage", "@id": `${SITE}/post/Firm-Expands-Cyber-Incident-Response-Team` },
      publisher: { "@type": "Organization", name: "Harrow Kline LLP" },
    });
    const trail = news.find((b) => b["@type"] === "BreadcrumbList")!;
    expect((trail.itemListElement as { name: string }[]).map((i) => i.name)).toEqual([
      "Home",
      "News & Insights",
      "Firm Expands Cyber Incident Response Team",
    ]);
    const blog = jsonLd(
      (await render(post, "/post/Delay-Claims-Proving-Critical-Path-Impact", { slug: "Delay-Claims-Proving-Critical-Path-Impact" })).tags,
    );
    expect(validate(blog)).toEqual([]);
    expect(blog[0]["@type"]).toBe("BlogPosting");
    // The demo's insights name their authors (Person, with the profile's URL); its news is by the firm.
    const authors = blog[0].author as { "@type": string; name: string; url: string }[];
    expect(authors.length).toBeGreaterThan(0);
    for (const a of authors)
      expect(a).toEqual({ "@type": "Person", name: expect.any(String), url: expect.stringMatching(new RegExp(`^${SITE}/lawyer/[^/]+$`)) });
    expect(news[0].author).toMatchObject({ "@type": "Organization", name: "Harrow Kline LLP" });
  });

  it("practice pages: the trail Home > practice", async () => {
    for (const [url, title] of [
      ["/insurance", "Insurance Defence"],
      ["/construction", "Construction Disputes"],
      ["/cyber?tab=team", "Cyber Security & Incident Response"],
    ] as const) {
      const blocks = jsonLd((await render(practice, url)).tags);
      expect(validate(blocks)).toEqual([]);
      expect(blocks).toHaveLength(1);
      expect((blocks[0].itemListElement as { name: string; item: string }[]).map((i) => [i.name, i.item])).toEqual([
        ["Home", `${SITE}/`],
        [title, `${SITE}/${url.slice(1).split("?")[0]}`],
      ]);
    }
  });
});

describe("the 1200×630 link-preview picture route", () => {
  const get = (kind: string, file: string) =>
    ogImage({ params: { kind, file }, request: new Request(`${SITE}/og/${kind}/${file}`), context: testContext() } as never);

  it("cuts a lawyer's photo and an article's picture to a 1200×630 JPEG, stored once", async () => {
    for (const [kind, slug, read] of [
      ["team", "Eleanor-Whitcombe", getTeamMemberBySlug],
      ["articles", "Firm-Expands-Cyber-Incident-Response-Team", getArticleBySlug],
    ] as const) {
      const stem = (await read(slug))!.img.replace(/\.\w+$/, "");
      const res = await get(kind, `${stem}.jpg`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/jpeg");
      expect(res.headers.get("cache-control")).toMatch(/immutable/);
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);
      const stored = await getStorage().get(`og/${kind}-${stem}.jpg`);
      expect(stored && Buffer.compare(stored, bytes)).toBe(0);
      // A second request is answered from storage, byte for byte.
      expect(Buffer.compare(Buffer.from(await (await get(kind, `${stem}.jpg`)).arrayBuffer()), bytes)).toBe(0);
    }
  });

  it("answers 404 for unknown pictures and anything that is not a plain picture name", async () => {
    for (const [kind, file] of [
      ["team", "00000000-0000-0000-0000-000000000000.jpg"],
      ["other", "x.jpg"],
      ["team", "..%2Fx.jpg"],
      ["team", "x.png"],
      ["team", "X.jpg"],
    ]) {
      const res = await get(kind, file);
      expect(res.status, `${kind}/${file}`).toBe(404);
    }
  });

  it("is removed with its picture", async () => {
    const member = (await getTeamMemberBySlug("Marcus-Adeyemi"))!;
    const stem = member.img.replace(/\.\w+$/, "");
    expect((await get("team", `${stem}.jpg`)).status).toBe(200);
    await deleteImage("team", member.img);
    expect(await getStorage().get(`og/team-${stem}.jpg`)).toBeUndefined();
    expect((await get("team", `${stem}.jpg`)).status).toBe(404);
  });

  it("the site default picture is committed at 1200×630", async () => {
    const meta = await sharp(fs.readFileSync(path.resolve(import.meta.dirname, "../../public/og-default.jpg"))).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);
  });
});
