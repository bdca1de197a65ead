/**
 * The browser tests' one fixture (vitest's `test.extend`): a file imports `test` (as `it`) and
 * `describe` from here, and each test asks for what it uses.
 *
 * - `base` (per file): the origin of the server the file's tests visit; by default this worker's
 *   shared server (global-setup.ts, `sharedServerUrl`). Files with a server of their own keep starting it in
 *   their `beforeAll` for now: a file fixture starts inside the first test, within its 90 s, too short for a
 *   start on a loaded machine.
 * - `browser` (per file): Debian's Chromium (`launchBrowser`), started on first use, closed after the file.
 * - `newPage(options)` (per test): a fresh context and page (`newPage` in support.ts: other sites answered
 *   locally), closed when the test ends.
 * - `staffPage(options, role, origin)` (per test): the same, signed in with a session of its own as the
 *   test staff account (the owner, ADMIN_EMAIL) or as an admin or an editor (an account invited once per
 *   server: `roleAccount`), on `base` unless another origin is given (a describe's own server).
 *
 * Suite hooks (`beforeAll`) receive the per-file ones: `beforeAll(({ base }) => …)`.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { test as vitestTest } from "vitest";
import { ADMIN_PASSWORD, launchBrowser, newPage, sharedServerUrl, signInContext, staffCookie } from "./support";

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
