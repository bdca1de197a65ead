/**
 * Browser-test helpers: start the built production server on a temporary
 * DATA_DIR and a free port, and launch Debian's Chromium via playwright-core.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { onTestFinished } from "vitest";
import { PRODUCTION_NODE_ARGS } from "../../server/node-args.js";
import { runA11yCheckers } from "./a11y-checkers";
import { freePort } from "../support/free-port";

/**
 * Debian's headless Chromium (package chromium-headless-shell: the same engine as the chromium package without its
 * windowing layer; ~20 % less CPU a page, decision 0028), or its full browser where only that is installed.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
export const ADMIN_EMAIL = "staff@example.com";
export const ADMIN_PASSWORD = "e2e-password-long-enough";

/** The dashboard's content screens: the first entries of its navigation, for every role. */
const CONTENT_SCREENS = ["Team", "Articles", "Events", "Trash", "Office hours", "Page headers"];

/** The dashboard navigation's links as each role sees them: an owner (the test account) all, an editor no staff screens. */
export const DASHBOARD_NAV = {
  owner: [
    ...CONTENT_SCREENS,
    "Enquiries",
    "Subscribers",
    "Statistics",
    "Redirects",
    "WordPress",
    "Staff",
    "Activity",
    "Outbox",
    "Failed jobs",
    "My account",
  ],
  editor: [...CONTENT_SCREENS, "Subscribers", "Statistics", "Redirects", "My account"],
};

/** Re-exported for the browser tests and the tests that start a server of their own. */
export { freePort };

export type RunningServer = {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * The environment of a production server on 127.0.0.1:`port` with its embedded database in `dataDir` and the test
 * staff account, whose passwords are hashed at the test cost (decision 0029).
 */
export function productionEnv(port: number, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://localhost:${port}`,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    PASSWORD_HASH_COST: "test",
  };
}

/**
 * Settings that change what a server's first start writes in its data folder (where the database is, whether
 * it seeds, the staff account, where pictures go and in which formats): with any of them, a server starts on an
 * empty folder of its own.
 */
const FIRST_START_SETTINGS = ["DATA_DIR", "DATABASE_URL", "SEED_DEMO", "ADMIN_EMAIL", "ADMIN_PASSWORD", "S3_BUCKET", "PICTURE_BASE_URL"];

/** The data folder a server (with the test settings) left after its first start, for the run (E2E_STARTED_DATA_DIR, global-setup.ts). */
export const STARTED_DATA_DIR = "E2E_STARTED_DATA_DIR";

/**
 * A new data folder for a server: a copy of the one a server with the same settings left after its first start
 * (migrated, demo content with its pictures, the staff account) when the run has one, so a test's server does not
 * redo that work (~8 s of CPU, most of it encoding the demo pictures); else empty.
 */
function newDataDir(options: { env?: Record<string, string>; firstStart?: boolean }): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "firm-e2e-"));
  const started = process.env[STARTED_DATA_DIR];
  const sameFirstStart = !FIRST_START_SETTINGS.some((name) => options.env?.[name] !== undefined);
  if (started && sameFirstStart && !options.firstStart) fs.cpSync(started, dataDir, { recursive: true });
  return dataDir;
}

export async function startServer(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    timeoutMs?: number;
    quiet?: boolean;
    port?: number;
    /** Write the server's stdout (its JSON log lines) to this file instead of keeping it. */
    logFile?: string;
    /** Extra arguments for node before server.js (e.g. --cpu-prof), after the production ones (PRODUCTION_NODE_ARGS; a later flag wins). */
    nodeArgs?: string[];
    /** An empty data folder, so the server makes its database and demo content itself (a first start), even where a started one could be copied. */
    firstStart?: boolean;
  } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? newDataDir(options);
  let out = "";
  const logFd = options.logFile ? fs.openSync(options.logFile, "a") : undefined;
  const child = spawn(process.execPath, [...PRODUCTION_NODE_ARGS, ...(options.nodeArgs ?? []), "server.js"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: {
      ...process.env,
      ...productionEnv(port, dataDir),
      LOG_LEVEL: "error",
      ...options.env,
    },
    stdio: ["ignore", logFd ?? (options.quiet ? "ignore" : "pipe"), "pipe"],
  });
  if (logFd !== undefined) fs.closeSync(logFd); // the child keeps its own copy
  child.stdout?.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const url = `http://localhost:${port}`;
  // E2E_SERVER_START_MS lengthens the wait on a machine that is busy with other work (default 90 s).
  const deadline = Date.now() + (options.timeoutMs ?? (Number(process.env.E2E_SERVER_START_MS) || 90_000));
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (Date.now() >= deadline) throw new Error(`server did not start:\n${out}`);
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => out,
    stop(signal = "SIGTERM") {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
}

/**
 * Other sites (Google's map frame, once a visitor asks for it) are not found, at once: the machine has no network,
 * and a request to another host neither waits on a name lookup nor leaves the machine. Not Playwright's request
 * routing: a context with a route sends every request through the test's process and loads nothing from the
 * browser's cache (docs/performance.md, "CI").
 */
const OTHER_HOSTS_NOT_FOUND = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1";

/**
 * Chromium's flags for tests and the audit: no sandbox (root in CI), no GPU, nothing fetched from the network of its
 * own accord, and no host but this machine's (OTHER_HOSTS_NOT_FOUND).
 */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  OTHER_HOSTS_NOT_FOUND,
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/** A page in a browser context of its own (other sites not found: CHROMIUM_FLAGS). */
export async function newPage(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  return { context, page };
}

/** axe-core alone (WCAG 2.1 A/AA rules) on the page as it is; its violations ([] when clean). */
export function axe(page: Page) {
  return runA11yCheckers(page, ["axe"]);
}

/** The shared server started by global-setup.ts for this worker (VITEST_POOL_ID): no other file running at the same time uses it. */
export function sharedServerUrl(): string {
  const url = process.env[`E2E_BASE_URL_${process.env.VITEST_POOL_ID}`] ?? process.env.E2E_BASE_URL;
  if (!url) throw new Error("E2E_BASE_URL is not set (run through vitest.e2e.config.ts)");
  return url;
}

/** A staff account's sign-in. */
/**
 * The dashboard screen at the page's address is hydrated and its requests are done. Call it once the address is
 * the new one (after `waitForURL`): after a client-side navigation the address changes before the new screen
 * renders, and the screen before it was hydrated too, so this waits for the main that says which address it shows.
 */
export async function dashboardReady(page: Page): Promise<void> {
  const { pathname, search } = new URL(page.url());
  const screen = (pathname + search).replace(/["\\]/g, "\\$&");
  await page.locator(`main[data-hydrated="true"][data-screen="${screen}"]`).waitFor();
  await page.waitForLoadState("networkidle");
}

export type StaffAccount = { email: string; password: string };
const TEST_STAFF: StaffAccount = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };

/**
 * Signs in to the server at `origin` as `account` (by default the test staff account, ADMIN_EMAIL) with the sign-in
 * form's POST, no browser, and returns the session cookie for later requests' `cookie` header.
 */
export async function staffCookie(origin: string, account: StaffAccount = TEST_STAFF): Promise<string> {
  const res = await fetch(`${origin}/admin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ email: account.email, password: account.password }).toString(),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie.includes("session_token=")) throw new Error(`staff sign-in of ${account.email} at ${origin} failed (status ${res.status})`);
  return cookie;
}

/**
 * A staff member's working visit: signs in and opens the dashboard, the articles and the account
 * screen (each a call into better-auth); fails unless each answers 200.
 */
export async function staffVisit(origin: string): Promise<void> {
  const cookie = await staffCookie(origin);
  for (const page of ["/dashboard", "/dashboard/articles", "/dashboard/account"]) {
    const res = await fetch(`${origin}${page}`, { headers: { cookie }, redirect: "manual" });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${page} answered ${res.status} to a signed-in staff member`);
  }
}

export async function signInAsStaff(page: Page, baseUrl = sharedServerUrl()) {
  await page.goto(`${baseUrl}/admin`);
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(/\/dashboard/);
}

/** Gives `context` a session of its own as `account` (the test staff account unless given; the sign-in form's POST, its cookies added). */
export async function signInContext(
  context: BrowserContext,
  baseUrl = sharedServerUrl(),
  account: StaffAccount = TEST_STAFF,
): Promise<void> {
  const cookies = (await staffCookie(baseUrl, account)).split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl, httpOnly: true, sameSite: "Lax" as const };
  });
  await context.addCookies(cookies);
}

/** A picture for forms that need one: a plain JPEG of `width`×`height`. */
export async function testJpeg(width = 400, height = 500): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  return sharp({ create: { width, height, channels: 3, background: "#3a6f8f" } })
    .jpeg()
    .toBuffer();
}

type FormFields = Record<string, string | { name: string; mimeType: string; buffer: Buffer }>;

/**
 * Sends a dashboard form with `page`'s session as a browser without JavaScript would (multipart), to make
 * the data a test needs in that test; fails unless the server accepts it.
 */
export async function sendForm(page: Page, path: string, fields: FormFields, baseUrl = sharedServerUrl()): Promise<void> {
  const res = await page.request.post(`${baseUrl}${path}`, { multipart: fields, headers: { origin: baseUrl } });
  if (res.status() >= 400) throw new Error(`POST ${path} answered ${res.status()}`);
}

/**
 * Deletes (to the Trash) the item a dashboard list finds by `name`, through the list's delete form with a
 * session of its own (so it works after the test's page is closed); nothing if it is already gone.
 */
export async function deleteFromList(list: "lawyers" | "articles", name: string, baseUrl = sharedServerUrl()): Promise<void> {
  const cookie = await staffCookie(baseUrl);
  const idOf = async () => {
    const res = await fetch(`${baseUrl}/dashboard/${list}?q=${encodeURIComponent(name)}`, { headers: { cookie } });
    // The row's no-JavaScript delete form: <form method="get" aria-label="Delete {name}"><input name="confirm" value="{id}">.
    const form = new RegExp(
      `aria-label="Delete ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>\\s*<input[^>]*name="confirm" value="(\\d+)"`,
    );
    return form.exec(await res.text())?.[1];
  };
  const id = await idOf();
  if (!id) return;
  const body = new URLSearchParams({ intent: "delete", id });
  await fetch(`${baseUrl}/dashboard/${list}`, { method: "POST", body, redirect: "manual", headers: { cookie, origin: baseUrl } });
  if (await idOf()) throw new Error(`${name} was not deleted`);
}

/**
 * An article made for one test through the create form (a news article, pinned, with a picture and a
 * two-paragraph body unless `fields` says otherwise); moved to the Trash when the test ends.
 */
export async function articleForTest(page: Page, title: string, fields: FormFields = {}, baseUrl = sharedServerUrl()): Promise<string> {
  await sendForm(
    page,
    "/dashboard/articles/new",
    {
      title,
      category: "cyber",
      news: "yes",
      priority: "on",
      status: "published",
      copy: "<p><strong>Strong opening.</strong></p><p>Second paragraph of the browser test.</p>",
      photo: { name: "cover.jpg", mimeType: "image/jpeg", buffer: await testJpeg(400, 300) },
      ...fields,
    },
    baseUrl,
  );
  onTestFinished(() => deleteFromList("articles", title, baseUrl));
  return title;
}

/**
 * A public form as its page serves it (its hidden fields: the timing token and the field no person
 * sees), to fill in with `fields` and send once its token allows, as a person takes a few seconds to
 * fill it in: for a test that needs what the form makes (an enquiry, a sign-up), not one of the form.
 */
export async function publicForm(
  path: string,
  baseUrl = sharedServerUrl(),
): Promise<{ fields: URLSearchParams; send(): Promise<Response> }> {
  const html = await (await fetch(`${baseUrl}${path}`)).text();
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields.set(name, value);
  fields.set("reference_code", ""); // the field no person sees, left empty
  return {
    fields,
    async send() {
      const notBefore = parseInt(/^1\.([0-9a-z]+)\./.exec(fields.get("form_token") ?? "")![1], 36);
      if (notBefore > Date.now()) await new Promise((r) => setTimeout(r, notBefore - Date.now() + 200));
      return fetch(`${baseUrl}${path}`, { method: "POST", body: fields, headers: { origin: baseUrl } });
    },
  };
}

/** A visitor's beacons, as a browser sends them, for the Statistics screen (rolled up by the server's job within a minute). */
export async function sendVisits(baseUrl = sharedServerUrl()): Promise<void> {
  const visitor = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
  for (const beacon of [
    { k: "v", p: "/?utm_source=newsletter&utm_medium=email&utm_campaign=fall", r: "https://www.google.ca/" },
    { k: "v", p: "/team", r: `${baseUrl}/` },
    { k: "v", p: "/search?q=ransomware", r: `${baseUrl}/team`, n: 2 },
    { k: "v", p: "/search?q=zzyzx", r: `${baseUrl}/search`, n: 0 },
    { k: "l", p: "/team", d: 42_000 },
    { k: "o", p: "/team", h: "tel:+14165550100" },
  ]) {
    const res = await fetch(`${baseUrl}/stats/beacon`, {
      method: "POST",
      body: JSON.stringify(beacon),
      headers: { origin: baseUrl, "content-type": "text/plain;charset=UTF-8", "user-agent": visitor },
    });
    if (res.status !== 204) throw new Error(`a beacon was answered ${res.status}`);
  }
}

/** Waits until the Statistics screen shows page views (the server's rollup runs every minute). */
export async function statisticsShown(page: Page, baseUrl = sharedServerUrl()): Promise<void> {
  const deadline = Date.now() + 80_000;
  while (!/data-figure="Page views">[1-9]/.test(await (await page.request.get(`${baseUrl}/dashboard/statistics?range=7d`)).text())) {
    if (Date.now() > deadline) throw new Error("the statistics did not show the visits within 80 s");
    await page.waitForTimeout(2000);
  }
}

/** The demo content's past event (it has registrants): its public page's slug. */
export const PAST_DEMO_EVENT = "Ethics-of-Defence-Reporting-to-Insurers";

/**
 * The registrations screen of the demo's past event, by its id (read from the
 * UID of the event's public calendar file, `event-{id}@host`). Until the
 * events list links each event's registrations, the browser tests open the
 * screen by this address.
 */
export async function pastEventRegistrationsPath(base: string): Promise<string> {
  const ics = await (await fetch(`${base}/event/${PAST_DEMO_EVENT}.ics`)).text();
  const id = /UID:event-(\d+)@/.exec(ics)?.[1];
  if (!id) throw new Error("the past demo event's calendar file holds no UID");
  return `/dashboard/events/${id}/registrations`;
}
