/**
 * Public pages: server-rendered content of every route, per-page meta,
 * reloads of shared URLs, 404s; no framework or admin code in the browser,
 * only the enhancement module (issue 15).
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "./fixture";
import { enhanced, scriptPaths, trackedPage } from "./public-helpers";

/** The dashboard's stylesheet (linked from the sign-in page): every class in app/. */
async function dashboardCss(base: string): Promise<string> {
  const admin = await (await fetch(base + "/admin")).text();
  const href = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"\/>/.exec(admin)?.[1];
  expect(href).toBeTruthy();
  return (await (await fetch(base + href)).text()).trim();
}

const ROUTES: { path: string; h1: string | RegExp; texts: (string | RegExp)[] }[] = [
  {
    path: "/",
    h1: "Our reputation is built on results",
    texts: ["DISCOVER MORE", "SEE ALL", "Firm Expands Cyber Incident Response Team", "Monday to Friday, 9:00 to 5:00"],
  },
  { path: "/team", h1: "Our Team", texts: ["Eleanor Whitcombe", "Managing Partner", "Our lawyers and staff combine courtroom experience"] },
  {
    path: "/lawyer/Eleanor-Whitcombe",
    h1: "Eleanor Whitcombe",
    texts: [
      "Managing Partner",
      "416-555-0142 ext. 101",
      "416-555-0190",
      "ewhitcombe@harrowkline.example",
      "Dana Ruiz",
      "Coverage issues",
      "DOWNLOAD VCARD",
    ],
  },
  {
    path: "/insights",
    h1: "News & Insights",
    texts: ["all articles", "Decisions, developments and events", "Firm Expands Cyber Incident Response Team"],
  },
  {
    path: "/post/Ransomware-Payments-Five-Questions-to-Ask-Before-You-Pay",
    h1: "Ransomware Payments: Five Questions to Ask Before You Pay",
    texts: ["Cyber", "Who is the threat actor?"],
  },
  {
    path: "/insurance",
    h1: "Insurance Defence",
    texts: ["Overview", "How can we help?", "CONTACT", "Defending insurers and their insureds with rigour"],
  },
  { path: "/construction", h1: "Construction Disputes", texts: ["How can we help?", "Resolving construction disputes"] },
  {
    path: "/cyber",
    h1: "Cyber Security & Incident Response",
    texts: ["Safeguarding your interests with swift action and solid defence.", "How can we help?"],
  },
  { path: "/disclaimer", h1: "Disclaimer", texts: ["not legal advice", "lawyer-client relationship"] },
  {
    path: "/accessibility",
    h1: "Accessibility",
    texts: ["Accessibility for Ontarians with Disabilities Act", "Morgan Ellery", "Priya Castellano", "2025 to 2029"],
  },
  { path: "/copyright", h1: "Copyright", texts: [`© ${new Date().getFullYear()} Harrow Kline LLP. All Rights Reserved.`] },
];

describe("every public route", () => {
  it("is complete in the server's HTML (no JavaScript needed) with a unique title, description and canonical URL", async ({ base }) => {
    const titles = new Set<string>();
    for (const route of ROUTES) {
      const res = await fetch(base + route.path);
      expect(res.status, route.path).toBe(200);
      const html = await res.text();
      const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/
        .exec(html)?.[1]
        ?.replace(/<[^>]+>/g, "")
        .replace(/&amp;/g, "&");
      expect(h1, route.path).toBe(route.h1);
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
      expect(title, route.path).toBeTruthy();
      expect(titles.has(title!), `${route.path} title "${title}" is unique`).toBe(false);
      titles.add(title!);
      expect(html, route.path).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html, route.path).toContain(`<link rel="canonical" href="${new URL(route.path, base).href}"/>`);
      expect(html, route.path).toContain('href="#main"');
      expect(html, route.path).toContain("All Rights Reserved.");
    }
  });

  it("renders each route in Chromium with its content; the only script is the enhancement module, with no error", async ({
    browser,
    base,
  }) => {
    const { context, page, errors, scripts } = await trackedPage(browser);
    for (const route of ROUTES) {
      const res = await page.goto(base + route.path);
      expect(res?.status(), route.path).toBe(200);
      await enhanced(page);
      expect(await page.locator("h1").first().textContent(), route.path).toBe(typeof route.h1 === "string" ? route.h1 : undefined);
      const text = await page.locator("body").textContent();
      for (const t of route.texts) expect(text, `${route.path}: ${t}`).toContain(t);
      // Navigation and footer frame every page.
      expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(1);
      expect(await page.locator("footer").textContent()).toContain(`© ${new Date().getFullYear()} Harrow Kline LLP. All Rights Reserved.`);
      // No React Router in the page: no router context, no client manifest.
      expect(await page.evaluate(() => "__reactRouterContext" in window || "__reactRouterManifest" in window), route.path).toBe(false);
    }
    expect(errors).toEqual([]);
    const files = [...new Set(scriptPaths(scripts))];
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\/assets\/enhance-[\w-]+\.js$/);
    await context.close();
  });

  it("asks for one small script at low priority and no framework module; the stylesheet is in the page", async ({ base }) => {
    // Public pages carry their own stylesheet inline (app/public.css): one text on every page,
    // the site's rules and fonts, and smaller than the dashboard's (linked; every class in app/).
    const dashboardStylesheet = await dashboardCss(base);
    const stylesheet = /<style>([\s\S]*?)<\/style>/.exec(await (await fetch(base + "/")).text())?.[1]?.trim() ?? "";
    expect(stylesheet).toContain(".hero-bg");
    expect(stylesheet).toContain("@font-face");
    expect(stylesheet.length).toBeGreaterThan(10_000);
    expect(stylesheet.length).toBeLessThan(dashboardStylesheet.length);
    const enhance = new Set<string>();
    for (const route of ROUTES) {
      const html = await (await fetch(base + route.path)).text();
      expect(html, route.path).not.toMatch(/rel="modulepreload"/);
      expect(html, route.path).not.toContain("__reactRouter");
      const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)];
      expect(scripts.length, route.path).toBe(1);
      expect(scripts[0][0], route.path).toMatch(/type="module"/);
      expect(scripts[0][0], route.path).toMatch(/fetchPriority="low"/);
      enhance.add(scripts[0][1]);
      // The Speculation Rules, inline (allowed by the page's CSP hash).
      expect(html, route.path).toContain('<script type="speculationrules">');
      // The stylesheet inline (no round trip before the first paint); the fonts preloaded at their normal priority.
      expect(html, route.path).not.toMatch(/<link[^>]*rel="stylesheet"/);
      expect(/<style>([\s\S]*?)<\/style>/.exec(html)?.[1]?.trim(), route.path).toBe(stylesheet);
      expect(html.match(/<link rel="preload" href="\/assets\/[^"]+\.woff2" as="font"/g)?.length, route.path).toBe(2);
      expect(html, route.path).not.toMatch(/<link[^>]*rel="(stylesheet|preload)"[^>]*fetchPriority="low"/);
    }
    expect(enhance.size).toBe(1);
    const [file] = [...enhance];
    const res = await fetch(base + file);
    expect(res.headers.get("cache-control")).toMatch(/immutable/);
    const code = await res.text();
    expect(gzipSync(code).length).toBeLessThanOrEqual(6 * 1024);
    // It imports nothing: one file is all the JavaScript a public page loads.
    expect(code).not.toMatch(/\bimport\s*[("'{*]|\bfrom\s*["']/);
  });

  it("styles every class a public page uses: none is left to the dashboard's stylesheet", async ({ browser, base }) => {
    // The inline stylesheet holds only the classes Tailwind finds in the public sources
    // (app/public.css): a class with a rule in the dashboard's stylesheet must have one here too.
    const dashboardStylesheet = await dashboardCss(base);
    const pages: [string, string][] = [];
    for (const path of [
      ...ROUTES.map((r) => r.path),
      "/contact",
      "/privacy",
      "/search",
      "/search?q=cyber",
      "/search?q=zzzz",
      "/insights?category=cyber",
      "/insights?page=2",
      "/no-such-page",
    ]) {
      pages.push([path, await (await fetch(base + path)).text()]);
    }
    // The enquiry form answered with errors (JavaScript off: the server's 400 page).
    const { context, page } = await trackedPage(browser, { javaScriptEnabled: false });
    await page.goto(base + "/contact");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Please correct the highlighted fields.").waitFor();
    pages.push(["/contact (errors)", await page.content()]);
    await context.close();
    const checked = new Set<string>();
    const unstyled: string[] = [];
    for (const [path, html] of pages) {
      const inline = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
      expect(inline.length, path).toBeGreaterThan(10_000);
      for (const [, list] of html.matchAll(/\bclass="([^"]*)"/g)) {
        for (const name of list.split(/\s+/).filter(Boolean)) {
          if (checked.has(name)) continue;
          checked.add(name);
          const selector = "." + name.replace(/[^a-zA-Z0-9_-]/g, (c) => "\\" + c);
          if (dashboardStylesheet.includes(selector) && !inline.includes(selector)) unstyled.push(`${name} (${path})`);
        }
      }
    }
    expect(checked.size).toBeGreaterThan(150);
    expect(unstyled).toEqual([]);
  });

  it("works without JavaScript: links are real links and the content is there", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { javaScriptEnabled: false });
    await page.goto(base + "/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "our team" }).click();
    await page.waitForURL(/\/team$/);
    await page.getByRole("link", { name: /Eleanor Whitcombe/ }).click();
    await page.waitForURL(/\/lawyer\/Eleanor-Whitcombe$/);
    expect(await page.locator("h1").textContent()).toBe("Eleanor Whitcombe");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "contact" }).click();
    await page.waitForURL(/\/#contact$/);
    expect(await page.locator("#contact h2").textContent()).toBe("Speak with us");
    await context.close();
  });
});

describe("the home page", () => {
  it("without JavaScript shows the site's own street plan and a link to the address on Google Maps, no frame", async ({
    browser,
    base,
  }) => {
    const { context, page } = await trackedPage(browser, { javaScriptEnabled: false });
    await page.goto(base + "/");
    const contact = page.locator("#contact");
    expect(await page.locator("iframe").count()).toBe(0);
    const picture = contact.getByRole("img", { name: /^Plan of the streets around the office: 100 Wellington Street West/ });
    expect(await picture.getAttribute("src")).toBe("/office-map.svg");
    expect(await contact.getByRole("button", { name: "Show the map" }).isVisible()).toBe(false);
    expect(await contact.getByRole("link", { name: "Open in Google Maps" }).getAttribute("href")).toBe(
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent("100 Wellington Street West, Toronto, ON M5K 1A1")}`,
    );
    await context.close();
  });

  it("shows phone, fax and e-mail as contact links, and Google's map (titled, the firm's address) only when asked", async ({
    browser,
    base,
  }) => {
    const { context, page, errors } = await trackedPage(browser);
    await page.goto(base + "/");
    const contact = page.locator("#contact");
    expect(await contact.locator('a[href="tel:+14165550142"]').count()).toBe(1);
    expect(await contact.locator('a[href="tel:+14165550143"]').count()).toBe(1);
    expect(await contact.locator('a[href="mailto:info@harrowkline.example"]').count()).toBe(1);
    // The map (another host) is not loaded with the page, nor when it comes into view: only when the visitor asks.
    await enhanced(page);
    const show = contact.getByRole("button", { name: "Show the map" });
    await show.scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    expect(await page.locator("iframe").count()).toBe(0);
    await show.click();
    const map = contact.locator("iframe");
    await map.waitFor();
    expect(await map.getAttribute("title")).toMatch(/Map of Harrow Kline LLP/);
    const src = (await map.getAttribute("src"))!;
    expect(src).toBe(`https://www.google.com/maps?q=${encodeURIComponent("100 Wellington Street West, Toronto, ON M5K 1A1")}&output=embed`);
    // The frame took the picture's place and the focus; the button is gone.
    expect(await contact.locator('img[src="/office-map.svg"]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("IFRAME");
    expect(await show.count()).toBe(0);
    // The top bar.
    const header = page.locator("header");
    expect(await header.locator('a[href="tel:+14165550142"]').count()).toBe(1);
    expect(await header.locator('a[href="mailto:info@harrowkline.example"]').count()).toBe(1);
    // The six most recent articles, SEE ALL to /insights.
    expect(await page.locator('section[aria-labelledby="news-title"] article').count()).toBe(6);
    expect(await page.getByRole("link", { name: "SEE ALL" }).getAttribute("href")).toBe("/insights");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("gives images alt text, explicit sizes, lazy loading below the fold and high priority to the lawyer photo", async ({
    browser,
    base,
  }) => {
    const { context, page } = await trackedPage(browser);
    await page.goto(base + "/team");
    const imgs = page.locator("main img");
    const n = await imgs.count();
    expect(n).toBe(10);
    for (let i = 0; i < n; i++) {
      const img = imgs.nth(i);
      expect(await img.getAttribute("alt")).toMatch(/^Portrait of /);
      expect(await img.getAttribute("width")).toBe("320");
      expect(await img.getAttribute("height")).toBe("400");
      // The first row on a phone (two columns) loads at once; the rest when near the window.
      expect(await img.getAttribute("loading")).toBe(i < 2 ? "eager" : "lazy");
    }
    // Chromium takes the AVIF width the layout needs (a phone's 412 px at 2x: the 640 one, or 320).
    await expect.poll(() => imgs.first().evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-(320|640)\.avif$/);
    await page.goto(base + "/lawyer/Eleanor-Whitcombe");
    const photo = page.locator("main img").first();
    expect(await photo.getAttribute("fetchpriority")).toBe("high");
    expect(await photo.getAttribute("alt")).toBe("Portrait of Eleanor Whitcombe");
    await expect
      .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc))
      .toMatch(/-(320|640)\.avif$/);
    // Preloaded from the head with high priority, in the format it is shown in.
    const preload = page.locator('head link[rel="preload"][as="image"][imagesrcset*=".avif"]');
    expect(await preload.count()).toBe(1);
    expect(await preload.getAttribute("fetchpriority")).toBe("high");
    expect(await preload.getAttribute("type")).toBe("image/avif");
    await context.close();
  });
});

describe("team and lawyers", () => {
  it("orders the team by title rank then last name", async ({ base }) => {
    const page = await (await fetch(base + "/team")).text();
    const html = page.slice(page.indexOf("<main"), page.indexOf("</main>"));
    const names = [...html.matchAll(/<h2[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(names).toEqual([
      "Eleanor Whitcombe",
      "Marcus Adeyemi",
      "Catherine Doyle",
      "Sofia Marchetti",
      "Rajiv Menon",
      "Amelia Brandt",
      "Benjamin Okafor",
      "Hiroshi Tanaka",
      "Nadia Kowalski",
      "Patrick Lindqvist",
    ]);
  });

  it("opens a lawyer from the grid, and a reload or a new tab shows the same lawyer", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser);
    await page.goto(base + "/team");
    await enhanced(page);
    await page.getByRole("link", { name: /Rajiv Menon/ }).click();
    await page.waitForURL(/\/lawyer\/Rajiv-Menon$/);
    expect(await page.locator("h1").textContent()).toBe("Rajiv Menon");
    await page.reload();
    expect(await page.locator("h1").textContent()).toBe("Rajiv Menon");
    const second = await context.newPage();
    await second.goto(base + "/lawyer/Rajiv-Menon");
    expect(await second.locator("h1").textContent()).toBe("Rajiv Menon");
    // Both phone links dial the main number; mobile is shown when present.
    expect(await page.locator('main a[href="tel:+14165550142"]').first().textContent()).toBe("416-555-0142 ext. 104");
    expect(await page.locator('main a[href="tel:+14165550192"]').count()).toBe(1);
    expect(await page.getByRole("link", { name: "DOWNLOAD VCARD" }).count()).toBe(2);
    // Support staff with name, title, extension, e-mail.
    const staff = await page.locator('section[aria-labelledby="staff-title"]').textContent();
    expect(staff).toContain("Ivy Chen");
    expect(staff).toContain("Incident Coordinator");
    expect(staff).toContain("ext. 125");
    expect(staff).toContain("ivy.chen@harrowkline.example");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the placeholder portrait for a member without a photo", async ({ base }) => {
    const html = await (await fetch(base + "/lawyer/Patrick-Lindqvist")).text();
    expect(html).toContain('src="/placeholder-portrait.svg"');
  });
});

describe("articles", () => {
  it("opens an article from the list; reload keeps it; the body is sanitised HTML", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser);
    await page.goto(base + "/insights");
    await enhanced(page);
    await page.getByRole("link", { name: "Business E-mail Compromise: The First 48 Hours" }).click();
    await page.waitForURL(/\/post\/Business-E-mail-Compromise-The-First-48-Hours$/);
    expect(await page.locator("h1").textContent()).toBe("Business E-mail Compromise: The First 48 Hours");
    await page.reload();
    expect(await page.locator("h1").textContent()).toBe("Business E-mail Compromise: The First 48 Hours");
    expect(await page.locator(".prose-article blockquote").textContent()).toBe("Call your bank first, then your breach counsel.");
    expect(await page.locator(".prose-article script, .prose-article [onerror], .prose-article style").count()).toBe(0);
    expect(await page.locator("main").textContent()).toMatch(/[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}/);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("not found", () => {
  const cases = [
    { path: "/no-such-page", text: "Page not found" },
    { path: "/team/extra/segments", text: "Page not found" },
    { path: "/lawyer/Nobody-Here", text: "Error. Could not retrieve lawyer." },
    { path: "/post/No-Such-Article", text: "No Article Found" },
  ];
  it("answers 404 with the spec's text inside the site frame", async ({ base }) => {
    for (const c of cases) {
      const res = await fetch(base + c.path);
      expect(res.status, c.path).toBe(404);
      const html = await res.text();
      expect(html, c.path).toContain(c.text);
      expect(html, c.path).toContain('aria-label="Main"');
      expect(html, c.path).toContain("All Rights Reserved.");
      expect(html, c.path).toContain('<meta name="robots" content="noindex"/>');
    }
    const vcard = await fetch(base + "/lawyer/Nobody-Here/vcard");
    expect(vcard.status).toBe(404);
  });

  it("shows the 404 page in Chromium, without errors besides the 404 itself", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser);
    const res = await page.goto(base + "/lawyer/Nobody-Here");
    expect(res?.status()).toBe(404);
    await enhanced(page);
    expect(await page.locator("h1").textContent()).toBe("Error. Could not retrieve lawyer.");
    const res2 = await page.goto(base + "/post/No-Such-Article");
    expect(res2?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("No Article Found");
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    await context.close();
  });
});
