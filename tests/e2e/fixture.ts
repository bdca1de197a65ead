/**
 * The browser tests' one fixture (vitest's `test.extend`): a file imports `test` (as `it`) and
 * `describe` from here, and each test asks for what it uses.
 *
 * - `base` (per file): the origin of the server the file's tests visit; by default this worker's
 *   shared server (global-setup.ts, `sharedServerUrl`). A file that needs a server of its own (other
 *   settings, an SMTP server, an empty database) calls `ownServer(options)` at its top level: the server
 *   starts in a `beforeAll` (within SERVER_START_TIMEOUT; a file fixture would start inside the first test's
 *   90 s, too short on a loaded machine), stops after the file, and is the file's `base`. A describe's own
 *   server is `suiteServer(options)` (its `url` given to `staffPage` as the origin).
 * - `browser` (per file): Debian's Chromium (`launchBrowser`), started on first use, closed after the file.
 * - `newPage(options)` (per test): a fresh context and page (`newPage` in support.ts; nothing intercepted,
 *   other hosts not found), closed when the test ends.
 * - `staffPage(options, role, origin)` (per test): the same, signed in with a session of its own as the
 *   test staff account (the owner, ADMIN_EMAIL) or as an admin or an editor (an account invited once per
 *   server: `roleAccount`), on `base` unless another origin is given (a describe's own server).
 *
 * Suite hooks registered through the fixture's test receive the per-file ones: `it.beforeAll(({ browser }) => …)`
 * (vitest's own `beforeAll`, imported from "vitest", receives none).
 *
 * statistics and multi-instance take their `test` from cluster-fixture.ts, this one with the nginx cluster they
 * share (statistics launches its own browser, with other flags). editorial-schedule, reliability-pg-outage and
 * mailing-kill take their browser and pages from here and start their cluster or servers themselves. Files not on it start
 * their own servers (and browsers, where they need one): those that start, kill or restart
 * servers inside their tests (event-reminders-kill, reliability-crash, reliability-lifecycle,
 * server-lifecycle, admission) and two servers on one database (cache-multiprocess). security-xss takes its page from here but starts its server itself (on an empty
 * PostgreSQL database, and none without PostgreSQL); failed-jobs' `suiteServer` makes its empty PostgreSQL
 * database in its options function.
 */
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, test as vitestTest } from "vitest";
import {
  ADMIN_PASSWORD,
  launchBrowser,
  newPage,
  sharedServerUrl,
  signInContext,
  staffCookie,
  startServer,
  type RunningServer,
} from "./support";

export { describe, expect, onTestFinished } from "vitest";

type ContextOptions = Parameters<Browser["newContext"]>[0];
export type StaffRole = "owner" | "admin" | "editor" | "events";
export type OpenPage = { context: BrowserContext; page: Page };

export const test = vitestTest
  .extend("base", { scope: "file" }, () => sharedServerUrl())
  // vitest reads a fixture's first parameter for the fixtures it uses: an empty pattern says none.
  // eslint-disable-next-line no-empty-pattern
  .extend("browser", { scope: "file" }, async ({}, { onCleanup }) => {
    const browser = await launchBrowser();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend("newPage", ({ browser }, { onCleanup }) => {
    const opened: BrowserContext[] = [];
    onCleanup(async () => {
      await Promise.all(opened.map((context) => context.close()));
    });
    return async (options: ContextOptions = {}): Promise<OpenPage> => {
      const open = await newPage(browser, options);
      opened.push(open.context);
      return open;
    };
  })
  .extend("staffPage", ({ base, newPage: open }) => {
    return async (options: ContextOptions = {}, role: StaffRole = "owner", origin = base): Promise<OpenPage> => {
      const signed = await open(options);
      if (role === "owner") await signInContext(signed.context, origin);
      else await signInContext(signed.context, origin, await roleAccount(origin, role));
      return signed;
    };
  });

export const it = test;

type ServerOptions = NonNullable<Parameters<typeof startServer>[0]>;

/**
 * The time a suite's `beforeAll` gives its server to start: startServer's own wait (E2E_SERVER_START_MS, else
 * 90 s) and half a minute for the rest (the hooks' default, 120 s, unless E2E_SERVER_START_MS is set).
 */
export const SERVER_START_TIMEOUT = (Number(process.env.E2E_SERVER_START_MS) || 90_000) + 30_000;

/**
 * A server of the current suite's own (a describe's, or the file's when called at its top level): `startServer`
 * with `options` (or what `options()` gives, worked out when the hook runs, e.g. an SMTP server's address) in
 * a `beforeAll` of that suite, within SERVER_START_TIMEOUT rather than a test's 90 s; stopped in its `afterAll`,
 * its data folder removed unless `options` named one. The answer stands for the running server (`RunningServer`:
 * its `url`, `dataDir`, `process`, `output()`) once that `beforeAll` has run; tests pass its `url` to `staffPage`
 * as the origin.
 */
export function suiteServer(
  options: ServerOptions | (() => ServerOptions | Promise<ServerOptions>) = {},
  timeout = SERVER_START_TIMEOUT,
): RunningServer {
  let running: RunningServer | undefined;
  let ownDataDir = false;
  beforeAll(async () => {
    const chosen = typeof options === "function" ? await options() : options;
    ownDataDir = chosen.dataDir === undefined;
    running = await startServer(chosen);
  }, timeout);
  afterAll(async () => {
    await running?.stop();
    if (running && ownDataDir) fs.rmSync(running.dataDir, { recursive: true, force: true });
  });
  const started = () => {
    if (!running) throw new Error("the suite's own server is not started yet (its beforeAll runs first)");
    return running;
  };
  return {
    get url() {
      return started().url;
    },
    get port() {
      return started().port;
    },
    get dataDir() {
      return started().dataDir;
    },
    get process() {
      return started().process;
    },
    output: () => started().output(),
    stop: (signal) => started().stop(signal),
  };
}

/**
 * `suiteServer` for the whole file, called at its top level: the file's `base` (and so `staffPage`'s origin)
 * is this server instead of the shared one.
 */
export function ownServer(
  options: ServerOptions | (() => ServerOptions | Promise<ServerOptions>) = {},
  timeout = SERVER_START_TIMEOUT,
): RunningServer {
  const own = suiteServer(options, timeout);
  test.override("base", { scope: "file" }, () => own.url);
  return own;
}

const accounts = new Map<string, Promise<{ email: string; password: string }>>();

/**
 * The sign-in of an `role` account on the server at `base`, made once per server and role the way an
 * owner does it: the Staff screen's invitation, its link read in the Outbox (no e-mail server), and the
 * invitation's form (name and password), each a request with the owner's session.
 */
export function roleAccount(base: string, role: Exclude<StaffRole, "owner">): Promise<{ email: string; password: string }> {
  const key = `${base} ${role}`;
  let account = accounts.get(key);
  if (!account) {
    account = inviteAccount(base, role);
    accounts.set(key, account);
  }
  return account;
}

async function inviteAccount(base: string, role: Exclude<StaffRole, "owner">) {
  const email = `e2e-${role}-${Date.now()}@example.com`;
  const password = `${ADMIN_PASSWORD}-${role}`;
  const owner = await staffCookie(base);
  const post = (path: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${base}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
  const invited = await post("/dashboard/staff", { intent: "invite", email, role }, owner);
  if (invited.status >= 400) throw new Error(`inviting ${email} as ${role} answered ${invited.status}`);
  const outbox = await (await fetch(`${base}/dashboard/outbox`, { headers: { cookie: owner } })).text();
  const message = new RegExp(`href="(/dashboard/outbox/\\d+)"[^]*?</th>\\s*<td[^>]*>${email.replace(/[.+]/g, "\\$&")}<`).exec(outbox)?.[1];
  if (!message) throw new Error(`the invitation to ${email} is not in the Outbox`);
  const text = await (await fetch(`${base}${message}`, { headers: { cookie: owner } })).text();
  const link = /\/admin\/invitation\/[A-Za-z0-9_-]+/.exec(text)?.[0];
  if (!link) throw new Error(`the invitation to ${email} holds no link`);
  const accepted = await post(link, { intent: "accept", name: `E2E ${role}`, password, confirm: password });
  if (accepted.status >= 400) throw new Error(`accepting the invitation of ${email} answered ${accepted.status}`);
  return { email, password };
}
