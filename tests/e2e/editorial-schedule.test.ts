/**
 * Issue 12's browser story on two server processes sharing one PostgreSQL
 * database (and one bucket), as a new user would do it in Chromium on
 * instance 1: write a draft, preview it, share the preview and open it signed
 * out; schedule an article about two minutes ahead, then do nothing to it —
 * it must appear on /insights, the home teaser and the RSS feed of BOTH
 * instances (each asked directly, its page cache cleared only through NOTIFY)
 * within 60 s of the scheduled minute, published exactly once; edit an
 * article twice and restore the first version from History.
 *
 * Also: a team member hidden through the team form is the 404 and absent from
 * /team and the practice pages' Team tabs on both instances, and back once
 * visible; and a crawl of every public URL (from /, the sitemap, the RSS feed,
 * every same-site link, search result pages, vCards, link pictures) finds no
 * trace of a draft, a scheduled article, an unpublished one, articles and a
 * member in the Trash and a hidden member, whose own URLs answer 404.
 *
 * Each test stands alone: it signs in with a browser context and session of
 * its own (the fixture's `staffPage`, tests/e2e/fixture.ts) and makes the article it works
 * on itself, so one failure does not fail the tests after it. The one
 * sequence that must run in time order (scheduled, then watched until it
 * appears) is one test. Only the cluster is shared (starting it takes a
 * minute).
 *
 * (Delete → Trash → restore → delete permanently: tests/e2e/editorial.test.ts.)
 * Needs PostgreSQL (TEST_DATABASE_URL or the machine's); skipped without one
 * unless CI is set.
 */
import sharp from "sharp";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { describe, expect, it, onTestFinished, type OpenPage } from "./fixture";
import { openDatabase, setDatabase, type Database } from "~/.server/db/client";
import { createArticle, deleteArticle, updateArticle } from "~/.server/db/articles";
import { createTeamMember, deleteTeamMember } from "~/.server/db/team";
import { startContentSync } from "~/.server/db/content-sync";
import { saveImage } from "~/.server/pictures/images";
import { setStorage } from "~/.server/storage/storage";
import { systemActor } from "~/.server/db/audit";
import { firmDateTimeText, parseFirmLocal, toFirmLocalInput } from "~/lib/firm-time";
import { postgresAvailable, startCluster, type ClusterWithoutProxy } from "../support/cluster";
import { articleForTest, dashboardReady, deleteFromList } from "./support";

let cluster: ClusterWithoutProxy | undefined;
let skipReason = "";

beforeAll(async () => {
  if (!(await postgresAvailable())) {
    skipReason = "no PostgreSQL server (set TEST_DATABASE_URL, or run one at 127.0.0.1:5432)";
    // CI starts one: there a missing server is a failure, not a skip.
    if (process.env.CI) throw new Error(skipReason);
    return;
  }
  cluster = await startCluster({ proxy: false });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
});

/** The shared cluster and its instances' addresses (instance 1's is the site's PUBLIC_URL); skips the test without PostgreSQL. */
function site(skip: (note?: string) => void): { c: ClusterWithoutProxy; one: string; two: string } {
  if (!cluster) skip(skipReason);
  const [one, two] = cluster!.instances.map((i) => i.url) as [string, string];
  return { c: cluster!, one, two };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type StaffPage = (options: { viewport: { width: number; height: number } }, role: "owner", origin: string) => Promise<OpenPage>;

/** This test's staff page on instance 1 (the site's PUBLIC_URL): the fixture's, a context and session of its own, closed when the test ends. */
async function signedIn(staffPage: StaffPage, c: ClusterWithoutProxy): Promise<Page> {
  return (await staffPage({ viewport: { width: 1280, height: 900 } }, "owner", c.instances[0].url)).page;
}

/** Waits for a status message, up to 60 s (CI once waited 30 s in vain for the History restore's); if it never comes, the error says what the page showed instead. */
async function status(p: Page, text: string | RegExp) {
  try {
    await p.getByTestId("status").getByText(text).first().waitFor({ timeout: 60_000 });
  } catch (error) {
    const shown = await p
      .getByTestId("status")
      .textContent({ timeout: 1000 })
      .catch(() => "(no status region)");
    const heading = await p
      .locator("h1")
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => "(no heading)");
    // The instance's last log lines (an action's error is logged there, not shown in words on the page).
    const serverLog = (cluster?.instances[0].output() ?? "").trim().split("\n").slice(-15).join("\n");
    throw new Error(
      `status "${String(text)}" not shown; ${p.url()} showed "${shown}" under "${heading}"; instance 1 logged:\n${serverLog}`,
      {
        cause: error,
      },
    );
  }
}
/** Replaces the rich-text body's text. */
async function typeBody(p: Page, text: string) {
  const body = p.getByRole("textbox", { name: /Article body/ });
  await body.click();
  await p.keyboard.press("Control+A");
  await p.keyboard.type(text);
}
/** Opens an article's edit form from the Manage Articles list on `origin`; its id. */
async function openEdit(p: Page, origin: string, title: string): Promise<number> {
  await p.goto(`${origin}/dashboard/articles?q=${encodeURIComponent(title)}`);
  await dashboardReady(p);
  await p.getByRole("link", { name: `Edit ${title}` }).click();
  await p.waitForURL(/\/dashboard\/articles\/\d+\/edit$/);
  await dashboardReady(p);
  await p.locator('[role="textbox"][aria-multiline="true"][aria-labelledby]').waitFor(); // the body editor, mounted after hydration
  return Number(/\/articles\/(\d+)\/edit$/.exec(p.url())![1]);
}

// ---------------------------------------------------------------------------
// Each test's article: its own title, in a first, second and third wording.
const stamp = Date.now().toString(36);
function wordings(label: string) {
  return {
    FIRST: { title: `${label} insight ${stamp}`, body: "The first wording of this insight." },
    SECOND: { title: `${label} insight ${stamp} second wording`, body: "The second wording of this insight." },
    THIRD: { title: `${label} insight ${stamp} third wording`, body: "The third wording of this insight." },
  };
}
const slugOf = (title: string) => title.replace(/\s+/g, "-");

/**
 * An article on the cluster made for one test (the create form's POST on instance 1, as a browser without
 * JavaScript would send it): an insurance news article in its first wording; moved to the Trash when the test ends.
 */
async function insightForTest(p: Page, c: ClusterWithoutProxy, title: string, body: string, status: "draft" | "published") {
  await articleForTest(p, title, { category: "insurance", priority: "", status, copy: `<p>${body}</p>` }, c.instances[0].url);
}

/** When the story's title was first seen on each watched URL (ms), and whether that URL had been answered from its page cache before. */
type Sighting = { url: string; firstSeen: number | null; cachedBefore: boolean; early: boolean };

/**
 * Asks every URL about once a second, as a visitor (no cookie, nothing
 * bypassed), until each shows `needle` or `until` passes; a sighting before
 * `notBefore` is marked early.
 */
async function watch(urls: string[], needle: string, notBefore: number, until: number): Promise<Sighting[]> {
  const sightings = urls.map((url) => ({ url, firstSeen: null as number | null, cachedBefore: false, early: false }));
  while (Date.now() < until && sightings.some((s) => s.firstSeen === null)) {
    const round = Date.now();
    await Promise.all(
      sightings
        .filter((s) => s.firstSeen === null)
        .map(async (s) => {
          try {
            const r = await fetch(s.url);
            const body = await r.text();
            const now = Date.now();
            if (body.includes(needle)) {
              s.firstSeen = now;
              if (now < notBefore) s.early = true;
            } else if (r.headers.get("x-cache") === "HIT") s.cachedBefore = true;
          } catch {
            /* counted as not seen yet */
          }
        }),
    );
    await sleep(Math.max(0, 1000 - (Date.now() - round)));
  }
  return sightings;
}

describe("scheduled publishing on two instances, in Chromium", () => {
  it("a draft is written in the form, previewed by staff, and its shared preview opens signed out while its public URL is the 404", async ({
    skip,
    staffPage,
    newPage,
  }) => {
    const { c, one } = site(skip);
    const { FIRST } = wordings("Previewed");
    const page = await signedIn(staffPage, c);
    onTestFinished(() => deleteFromList("articles", FIRST.title, one));
    await page.goto(`${one}/dashboard/articles/new`);
    await dashboardReady(page);
    await page.getByTestId("rich-text-editor").waitFor();
    await page.locator("#field-title").fill(FIRST.title);
    await page.locator("#field-category").selectOption("insurance");
    await page.getByLabel("Yes", { exact: true }).check();
    await typeBody(page, FIRST.body);
    await page.getByLabel("Draft", { exact: true }).check();
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#6f3a8f" } })
      .jpeg()
      .toBuffer();
    await page.locator("#field-photo").setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await page.getByTestId("file-size").waitFor();
    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status(page, "Article has been added successfully.");

    await openEdit(page, one, FIRST.title);
    // Preview (staff) and a shared preview opened signed out; the public URL stays the 404.
    const href = await page.getByRole("link", { name: /^Preview/ }).getAttribute("href");
    const preview = await page.context().newPage();
    expect((await preview.goto(`${one}${href}`))?.status()).toBe(200);
    await preview.getByText("Preview — not published").waitFor();
    expect(await preview.locator("h1").textContent()).toBe(FIRST.title);
    await preview.close();
    await page.getByRole("button", { name: "Share a preview" }).click();
    await page.locator("#share-url").waitFor();
    const shared = new URL(await page.locator("#share-url").inputValue()).pathname;
    const p = (await newPage()).page;
    expect((await p.goto(`${one}${shared}`))?.status()).toBe(200);
    await p.getByText("Preview — not published").waitFor();
    expect(await p.locator("main").textContent()).toContain(FIRST.body);
    expect((await p.goto(`${one}/post/${slugOf(FIRST.title)}`))?.status()).toBe(404);
  });

  // One test, in time order: scheduled, then nothing done to it until it appears. Split in two, the
  // watching test would depend on the scheduling one (and fail whenever it did).
  it(
    "scheduled about two minutes ahead in Toronto time, then with no other action it appears on /insights, the home teaser and the RSS feed of both instances within 60 s of its minute, published once",
    { timeout: 300_000 },
    async ({ skip, staffPage, newPage }) => {
      const { c, one } = site(skip);
      const { FIRST } = wordings("Scheduled");
      const page = await signedIn(staffPage, c);
      await insightForTest(page, c, FIRST.title, FIRST.body, "draft");
      const articleId = await openEdit(page, one, FIRST.title);

      // Scheduled for the first whole minute at least 70 s away, typed in Toronto time.
      await page.getByLabel("Scheduled", { exact: true }).check();
      const scheduledAt = Math.ceil((Date.now() + 70_000) / 60_000) * 60_000;
      const typed = toFirmLocalInput(new Date(scheduledAt));
      expect(parseFirmLocal(typed, "Publish time")).toEqual({ ok: true, date: new Date(scheduledAt) });
      await page.locator("#field-publish_at").fill(typed);
      await page.getByRole("button", { name: "SAVE CHANGES" }).click();
      await status(page, "Article was updated successfully.");
      await page.getByText(`Scheduled for ${firmDateTimeText(new Date(scheduledAt))}`).waitFor();

      // From now on nobody touches it: both instances are watched as a visitor would see them.
      const urls = c.instances.flatMap((i) => [`${i.url}/insights`, `${i.url}/`, `${i.url}/insights/feed.xml`]);
      const sightings = await watch(urls, FIRST.title, scheduledAt, scheduledAt + 90_000);
      const report = sightings.map(
        (s) =>
          `${s.url}: ${s.firstSeen === null ? "never" : `${((s.firstSeen - scheduledAt) / 1000).toFixed(1)} s`}${s.early ? " (early)" : ""}`,
      );
      console.log(`scheduled for ${new Date(scheduledAt).toISOString()}:\n  ${report.join("\n  ")}`);
      for (const s of sightings) {
        expect(s.firstSeen, `${s.url} never showed it`).not.toBeNull();
        expect(s.early, `${s.url} showed it before its time`).toBe(false);
        expect(s.firstSeen! - scheduledAt, s.url).toBeLessThanOrEqual(60_000);
      }
      // The lists and the feed had been answered from each instance's page cache: NOTIFY cleared it.
      for (const s of sightings.filter((s) => !s.url.endsWith("/"))) expect(s.cachedBefore, `${s.url} was cached before`).toBe(true);

      // Exactly one publish, by the scheduled-publishing job, in the shared database.
      const publishes = await c.query<{ actor_label: string; actor_id: string | null }>(
        "select actor_label, actor_id from audit_log where item_type = 'article' and item_id = $1 and action = 'publish'",
        [String(articleId)],
      );
      expect(publishes).toEqual([{ actor_label: "scheduled publishing", actor_id: null }]);

      // A visitor on instance 2 reads it; History on instance 1 shows one version made by scheduled publishing.
      const v = (await newPage()).page;
      await v.goto(`${c.instances[1].url}/insights`);
      await v
        .getByRole("link", { name: new RegExp(FIRST.title) })
        .first()
        .click();
      await v.waitForURL(new RegExp(`/post/${slugOf(FIRST.title)}$`));
      expect(await v.locator("h1").textContent()).toBe(FIRST.title);
      await page.goto(`${one}/dashboard/history/article/${articleId}`);
      await dashboardReady(page);
      const versions = await page.getByRole("navigation", { name: "Versions" }).getByRole("listitem").allTextContents();
      expect(versions.filter((t) => t.includes("scheduled publishing,"))).toHaveLength(1);
    },
  );

  it("a team member hidden through the team form is the 404 and absent from /team and the practice Team tabs on both instances; visible again after", async ({
    skip,
    staffPage,
    newPage,
  }) => {
    const { c, one } = site(skip);
    const [member] = await c.query<{ slug: string; full_name: string; AOP: string[] }>(
      `select slug, full_name, "AOP" from team where title ilike '%partner%' and cardinality("AOP") > 0 order by id limit 1`,
    );
    expect(member).toBeDefined();
    const { slug, full_name: name } = member;
    const PRACTICES = ["insurance", "construction", "cyber"];
    const page = await signedIn(staffPage, c);
    const v = (await newPage()).page;
    /** What a visitor sees of the member on each instance: the profile's status, and whether /team and each practice Team tab list them. */
    const seen = async () => {
      const out: string[] = [];
      for (const instance of c.instances) {
        const profile = await v.goto(`${instance.url}/lawyer/${slug}`);
        out.push(`${instance.port} profile ${profile?.status()}`);
        for (const path of ["/team", ...PRACTICES.map((a) => `/${a}?tab=team`)]) {
          await v.goto(`${instance.url}${path}`);
          if ((await v.locator("main").textContent())?.includes(name)) out.push(`${instance.port} ${path}`);
        }
      }
      return out.join("; ");
    };
    const everywhere = c.instances
      .map((i) =>
        [
          `${i.port} profile 200`,
          `${i.port} /team`,
          ...PRACTICES.filter((a) => member.AOP.includes(a)).map((a) => `${i.port} /${a}?tab=team`),
        ].join("; "),
      )
      .join("; ");
    const nowhere = c.instances.map((i) => `${i.port} profile 404`).join("; ");
    expect(await seen()).toBe(everywhere);

    const setVisibility = async (choice: "Hidden" | "Visible") => {
      await page.goto(`${one}/dashboard/lawyer/${slug}`);
      await dashboardReady(page);
      await page.getByLabel(choice, { exact: true }).check();
      await page.getByRole("button", { name: "SAVE CHANGES" }).click();
      await status(page, `${name} updated successfully`);
    };
    await setVisibility("Hidden");
    await expect.poll(seen, { timeout: 10_000, interval: 250 }).toBe(nowhere);
    // The spec's 404 page, not an empty profile.
    const r = await v.goto(`${c.instances[1].url}/lawyer/${slug}`);
    expect(r?.status()).toBe(404);
    expect(await v.locator("main").textContent()).not.toContain(name);

    await setVisibility("Visible");
    await expect.poll(seen, { timeout: 10_000, interval: 250 }).toBe(everywhere);
  });
});

// ---------------------------------------------------------------------------
// The crawl: nothing unpublished leaks through any public URL.

const actor = systemActor("leak test");
/** Each unpublished item's distinctive words (its title or name, and a word only its body or bio holds). */
const SECRETS = {
  draft: ["Vorpalite", "glimmerquist"],
  scheduled: ["Thundrel", "marblefoot"],
  unpublished: ["Pellucidar", "snorkwell"],
  trashedArticle: ["Gossamine", "quaggleton"],
  hiddenMember: ["Quixbury", "zanderfell"],
  trashedMember: ["Flinderkin", "crumplehorn"],
};
const SECRET_WORDS = Object.values(SECRETS).flat();
const MAX_URLS = 400;
const SKIPPED_PREFIXES = ["/admin", "/dashboard", "/logout"];

type Fetched = { url: string; status: number; type: string; from: string };

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/** Same-site URLs named by a response: attributes (href, src, srcset, content, action), absolute addresses anywhere (sitemap, feed, JSON-LD, vCard) and JSON's relative ones. */
function linksIn(body: string, origin: string): string[] {
  const found: string[] = [];
  for (const m of body.matchAll(/\s(?:href|src|action|content|poster|data-[a-z-]+)="([^"]*)"/gi)) found.push(decodeEntities(m[1]));
  for (const m of body.matchAll(/\ssrcset="([^"]*)"/gi))
    for (const part of decodeEntities(m[1]).split(",")) found.push(part.trim().split(/\s+/)[0]);
  const escaped = origin.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  for (const m of body.matchAll(new RegExp(`${escaped}[^\\s"'<>\\\\]*`, "g"))) found.push(decodeEntities(m[0]));
  for (const m of body.matchAll(/"(?:url|@id|image|logo|item|contentUrl|target)"\s*:\s*"(\/[^"]*)"/g)) found.push(m[1]);
  const out: string[] = [];
  for (const raw of found) {
    if (raw.startsWith("//")) continue;
    let path: string;
    if (raw.startsWith(origin)) path = raw.slice(origin.length) || "/";
    else if (raw.startsWith("/")) path = raw;
    else continue;
    path = path.split("#")[0]!;
    if (!path || SKIPPED_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`))) continue;
    out.push(path);
  }
  return out;
}

/**
 * The body without the request's own address and query values: a 404 page
 * names the path asked for and a search page the words typed; repeating
 * what the visitor typed is not a leak. (A search result would still show
 * the item's other word: its title for a body word, its summary for a title.)
 */
function withoutEchoes(body: string, path: string): string {
  const url = new URL(path, "http://x");
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const echoes = [path, decode(path), url.pathname, decode(url.pathname), ...url.searchParams.values()].filter((e) => e.length > 1);
  let out = body;
  for (const echo of echoes.sort((a, b) => b.length - a.length))
    out = out.split(new RegExp(echo.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "gi")).join("");
  return out;
}

/**
 * Walks the public site from `start`: every same-site link of every answer
 * (redirects followed), at most MAX_URLS. Pictures and build assets are only
 * checked for their status.
 */
async function crawl(base: string, origin: string, start: string[]) {
  const queue: { path: string; from: string }[] = start.map((path) => ({ path, from: "start" }));
  const seen = new Set(queue.map((q) => q.path));
  const fetched: Fetched[] = [];
  const leaks: string[] = [];
  const bodies = new Map<string, string>();
  let active = 0;
  const worker = async () => {
    for (;;) {
      if (fetched.length + active >= MAX_URLS) return;
      const item = queue.shift();
      if (!item) {
        // Another worker may still add links.
        if (active === 0) return;
        await sleep(5);
        continue;
      }
      active++;
      const { path, from } = item;
      const r = await fetch(`${base}${path}`, { redirect: "manual" });
      const type = r.headers.get("content-type") ?? "";
      fetched.push({ url: path, status: r.status, type, from });
      const next: string[] = [];
      const location = r.headers.get("location");
      if (location) next.push(...linksIn(` href="${location}"`, origin));
      if (/^\/(images|assets)\//.test(path) || /^image\//.test(type)) {
        await r.arrayBuffer();
      } else {
        const text = await r.text();
        // A calendar file folds its lines at 75 octets (RFC 5545 §3.1): read it unfolded, as a calendar does.
        const body = /^text\/calendar/.test(type) ? text.replace(/\r?\n[ \t]/g, "") : text;
        bodies.set(path, body);
        const lower = withoutEchoes(body, path).toLowerCase();
        for (const word of SECRET_WORDS) if (lower.includes(word.toLowerCase())) leaks.push(`${path} (${r.status}) contains “${word}”`);
        next.push(...linksIn(body, origin));
      }
      for (const n of next) {
        if (!seen.has(n)) {
          seen.add(n);
          queue.push({ path: n, from: path });
        }
      }
      active--;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { fetched, leaks, bodies, unvisited: queue.length };
}

async function picture(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();
}

describe("nothing unpublished leaks through any public URL", () => {
  it(
    "a crawl of every public page, feed, vCard, search result and link picture finds none of their words; their own URLs are the 404",
    { timeout: 180_000 },
    async ({ skip }) => {
      const { c, one } = site(skip);
      let database: Database | undefined;
      let sync: { stop(): Promise<void> } | undefined;
      const storage = c.bucket.storage();
      const made: {
        articles: Record<string, { slug: string; img: string }>;
        hidden: { slug: string; img: string };
        trashedMember: { slug: string; img: string };
      } = {
        articles: {},
        hidden: { slug: "", img: "" },
        trashedMember: { slug: "", img: "" },
      };
      try {
        database = await openDatabase({ url: c.databaseUrl });
        setDatabase(database);
        setStorage(storage);
        sync = await startContentSync(database);
        const [lawyer] = await c.query<{ id: number }>(
          `select id from team where title ilike '%partner%' and visible and deleted_at is null order by id desc limit 1`,
        );
        const member = (full_name: string, desc: string) => ({
          full_name,
          title: "Partner",
          email: `${full_name.split(" ")[1].toLowerCase()}@example.com`,
          extension: 177,
          mobile: "416-555-0177",
          desc: `<p>${desc}</p>`,
          AOP: ["insurance", "cyber"],
          area_details: [],
          staff: [],
        });
        const hidden = await createTeamMember(
          {
            ...member("Ottoline Quixbury", "Ottoline zanderfell practises insurance law."),
            img: await saveImage("team", await picture(400, 500, "#335577")),
            visibility: { visible: false, visibleFrom: null, hiddenFrom: null },
          },
          actor,
        );
        const gone = await createTeamMember(
          {
            ...member("Barnaby Flinderkin", "Barnaby crumplehorn left the firm."),
            img: await saveImage("team", await picture(400, 500, "#553377")),
          },
          actor,
        );
        made.hidden = { slug: hidden.slug, img: hidden.img };
        made.trashedMember = { slug: gone.slug, img: gone.img };
        const article = async (title: string, word: string) => ({
          title,
          img: await saveImage("articles", await picture(800, 450, "#775533")),
          category: "insurance",
          news: true,
          priority: false,
          copy: `<p>About ${word} and the rest.</p>`,
          authors: [lawyer.id, hidden.id, gone.id],
        });
        const draft = await createArticle(
          { ...(await article("Vorpalite Coverage Memo", "glimmerquist")), state: { status: "draft" } },
          actor,
        );
        const scheduled = await createArticle(
          {
            ...(await article("Thundrel Notice", "marblefoot")),
            state: { status: "scheduled", publishAt: new Date(Date.now() + 86_400_000) },
          },
          actor,
        );
        // Once public under another title, then renamed and taken back to draft: neither slug may answer.
        const was = await createArticle({ ...(await article("Pellucidar Update", "snorkwell")), state: { status: "published" } }, actor);
        const unpublished = (await updateArticle(
          was.id,
          { ...(await article("Pellucidar Update Revised", "snorkwell")), img: was.img, state: { status: "draft" } },
          actor,
        ))!.after;
        const trashed = await createArticle(
          { ...(await article("Gossamine Briefing", "quaggleton")), state: { status: "published" } },
          actor,
        );
        await deleteArticle(trashed.id, actor);
        await deleteTeamMember(gone.id, actor);
        // A public article naming the hidden and the deleted member among its authors: only the visible one may be shown.
        const control = await createArticle(
          { ...(await article("Harbourline Public Note", "openly")), state: { status: "published" } },
          actor,
        );
        made.articles = {
          draft: { slug: draft.slug, img: draft.img },
          scheduled: { slug: scheduled.slug, img: scheduled.img },
          unpublished: { slug: unpublished.slug, img: unpublished.img },
          trashedArticle: { slug: trashed.slug, img: trashed.img },
        };
        const wasSlug = was.slug;

        const stem = (img: string) => img.replace(/\.\w+$/, "");
        const ownUrls = [
          ...Object.values(made.articles).flatMap((a) => [
            `/post/${a.slug}`,
            `/post/${a.slug.toLowerCase()}`,
            `/og/articles/${stem(a.img)}.jpg`,
          ]),
          `/post/${wasSlug}`,
          ...[made.hidden, made.trashedMember].flatMap((m) => [
            `/lawyer/${m.slug}`,
            `/lawyer/${m.slug.toLowerCase()}`,
            `/lawyer/${m.slug}/vcard`,
            `/og/team/${stem(m.img)}.jpg`,
          ]),
        ];
        const start = [
          "/",
          "/sitemap.xml",
          "/insights/feed.xml",
          "/robots.txt",
          ...SECRET_WORDS.map((w) => `/search?q=${encodeURIComponent(w)}`),
          // Searches that do find public things, sharing the unpublished items' other words (their result pages, kinds and pages are followed).
          ...["coverage", "memo", "notice", "briefing", "update", "Ottoline", "Barnaby", "insurance", "partner"].map(
            (w) => `/search?q=${w}`,
          ),
          ...[made.hidden, made.trashedMember].map((m) => `/insights?author=${m.slug}`),
          ...ownUrls,
        ];
        // The control article is on the home page at once (each instance's cache cleared through NOTIFY).
        for (const instance of c.instances) {
          await expect
            .poll(async () => (await (await fetch(`${instance.url}/`)).text()).includes("Harbourline Public Note"), {
              timeout: 5000,
              interval: 100,
            })
            .toBe(true);
        }

        const started = Date.now();
        const result = await crawl(one, c.url, start);
        const ms = Date.now() - started;
        console.log(`crawl: ${result.fetched.length} URLs in ${ms} ms (${result.unvisited} left unvisited)`);

        expect(result.leaks).toEqual([]);
        // Searching for any of their words finds nothing.
        for (const word of SECRET_WORDS) expect(result.bodies.get(`/search?q=${word}`), word).toMatch(/<title>No results for /);
        for (const url of ownUrls) expect(result.fetched.find((f) => f.url === url)?.status, url).toBe(404);
        // The same on the other instance.
        for (const url of ownUrls)
          expect((await fetch(`${c.instances[1].url}${url}`, { redirect: "manual" })).status, `instance 2 ${url}`).toBe(404);
        // Every link found works (nothing linked to an unpublished item) and nothing failed.
        const broken = result.fetched
          .filter((f) => f.from !== "start" && f.status >= 400)
          .map((f) => `${f.url} ${f.status} (linked from ${f.from})`);
        expect(broken).toEqual([]);
        expect(result.fetched.filter((f) => f.status >= 500)).toEqual([]);
        expect(result.unvisited).toBe(0);

        // The crawl did reach every kind of public URL, and saw the fresh content.
        const paths = result.fetched.filter((f) => f.status === 200).map((f) => f.url);
        for (const kind of [
          /^\/lawyer\/[^/]+$/,
          /^\/lawyer\/[^/]+\/vcard$/,
          /^\/post\//,
          /^\/insights\?.*author=/,
          /^\/insights\?.*page=2/,
          /^\/insights\?.*category=/,
          /\?tab=team/,
          /\?tab=insights/,
          /^\/og\/articles\//,
          /^\/og\/team\//,
          /^\/images\//,
          /^\/search\?q=/,
          /^\/team$/,
          /^\/contact$/,
        ]) {
          expect(
            paths.some((p) => kind.test(p)),
            String(kind),
          ).toBe(true);
        }
        const note = result.bodies.get(`/post/${control.slug}`);
        expect(note, "the public control article was crawled").toBeDefined();
        expect(note).toContain("openly");
        const [visibleAuthor] = await c.query<{ full_name: string; slug: string }>("select full_name, slug from team where id = $1", [
          lawyer.id,
        ]);
        expect(note).toContain(`/lawyer/${visibleAuthor.slug}`);
      } finally {
        await sync?.stop();
        setDatabase(undefined);
        setStorage(undefined);
        storage.close?.();
        await database?.close();
      }
    },
  );
});

// ---------------------------------------------------------------------------

describe("History on two instances, in Chromium", () => {
  it(
    "edited twice, then the first version restored from History: the post shows the first wording again on both instances, and History the restore as a new version",
    { timeout: 180_000 },
    async ({ skip, staffPage, newPage }) => {
      const { c, one, two } = site(skip);
      const { FIRST, SECOND, THIRD } = wordings("Restored");
      const page = await signedIn(staffPage, c);
      await insightForTest(page, c, FIRST.title, FIRST.body, "published");
      const articleId = await openEdit(page, one, FIRST.title);
      for (const wording of [SECOND, THIRD]) {
        await page.goto(`${one}/dashboard/articles/${articleId}/edit`);
        await dashboardReady(page);
        await page.locator('[role="textbox"][aria-multiline="true"][aria-labelledby]').waitFor();
        await page.locator("#field-title").fill(wording.title);
        await typeBody(page, wording.body);
        await page.getByRole("button", { name: "SAVE CHANGES" }).click();
        await status(page, "Article was updated successfully.");
      }
      const v = (await newPage()).page;
      await expect.poll(async () => (await v.goto(`${two}/post/${slugOf(THIRD.title)}`))?.status(), { timeout: 5000 }).toBe(200);
      expect(await v.locator("main").textContent()).toContain(THIRD.body);

      // From the edit screen's History link: the oldest version, restored.
      await page.getByRole("link", { name: "History", exact: true }).click();
      await page.waitForURL(new RegExp(`/dashboard/history/article/${articleId}$`));
      await dashboardReady(page);
      // A client-side navigation: the URL changes (and the old screen's main is hydrated) before History renders,
      // so its list is waited for before it is counted (CI once counted 0 versions here and expected "version 1").
      const versions = page.getByRole("navigation", { name: "Versions" }).getByRole("listitem");
      await versions.first().waitFor();
      const before = await versions.count();
      const oldest = versions.last();
      expect(await oldest.getByRole("link").textContent()).toBe("Version 1");
      await oldest.getByRole("link").click();
      await page.waitForURL(/\?rev=\d+$/);
      await page.getByRole("heading", { name: "What version 1 changed" }).waitFor();
      expect(await page.getByRole("region", { name: "What version 1 changed" }).textContent()).toContain(FIRST.body);
      await page.getByRole("button", { name: "Restore version 1" }).click();
      const made = before + 1;
      await status(page, `Version 1 restored (saved as version ${made}).`);
      expect(await versions.count()).toBe(before + 1);
      expect(await versions.first().textContent()).toMatch(new RegExp(`^Version ${made} \\(current\\)`));
      // The new version's change: back to the first wording.
      await page.getByRole("heading", { name: `What version ${made} changed` }).waitFor();
      const changes = page.getByRole("region", { name: `What version ${made} changed` });
      expect(await changes.locator("ins").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("first")]));
      expect(await changes.locator("del").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("third")]));
      // Versions 2… are all still listed: nothing was rewritten.
      expect(await versions.getByRole("link").allTextContents()).toEqual(
        Array.from({ length: made }, (_, i) => `Version ${made - i}${i === 0 ? " (current)" : ""}`),
      );

      // The public post, on both instances, shows the first wording; the third wording's address leads to it.
      for (const url of [one, two]) {
        await expect
          .poll(
            async () => {
              const r = await v.goto(`${url}/post/${slugOf(FIRST.title)}`);
              return r?.status() === 200 ? await v.locator("h1").textContent() : r?.status();
            },
            { timeout: 5000 },
          )
          .toBe(FIRST.title);
        expect(await v.locator("main").textContent()).toContain(FIRST.body);
        await v.goto(`${url}/post/${slugOf(THIRD.title)}`);
        expect(new URL(v.url()).pathname).toBe(`/post/${slugOf(FIRST.title)}`);
        await v.goto(`${url}/insights`);
        const list = await v.locator("main").textContent();
        expect(list).toContain(FIRST.title);
        expect(list).not.toContain("third wording");
      }
    },
  );
});
