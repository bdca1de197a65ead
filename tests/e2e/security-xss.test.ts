/**
 * Stored XSS: every payload of a public XSS corpus (Debian's wfuzz list when
 * installed, plus known mutation-XSS cases) is stored raw as an article body
 * — bypassing the sanitising on save, so the sanitising at render is tested
 * on its own — and the public page is opened in Chromium: no script may run.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { describe, expect, it } from "./fixture";
import { startServer, type RunningServer } from "./support";

const WFUZZ = "/usr/share/wfuzz/wordlist/Injections/XSS.txt";
const payloads = [
  ...(fs.existsSync(WFUZZ) ? fs.readFileSync(WFUZZ, "utf8").split("\n") : []),
  ...fs.readFileSync("tests/fixtures/mxss.txt", "utf8").split("\n"),
].filter((p) => p.trim());

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `firm_xss_${randomBytes(4).toString("hex")}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();

let available = true;
let server: RunningServer | undefined;

async function query(connectionString: string, text: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString });
  await c.connect();
  try {
    return await c.query(text, values);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  try {
    await query(ADMIN_URL, `create database ${name}`);
  } catch {
    available = false;
    return;
  }
  server = await startServer({ env: { DATABASE_URL: url } }); // migrates the empty database
  for (const [i, payload] of payloads.entries()) {
    await query(
      url,
      `insert into articles (slug, title, category, copy, date, status, published_at) values ($1, $2, 'cyber', $3, 'd', 'published', now())`,
      [`xss-${i}`, `XSS ${i}`, `<p>before</p>${payload}<p>after</p>`],
    );
  }
});

afterAll(async () => {
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  if (available) await query(ADMIN_URL, `drop database if exists ${name} with (force)`);
});

describe("stored XSS in article bodies", () => {
  it(`runs no script for any of ${payloads.length} payloads`, async ({ skip, newPage }) => {
    if (!available) skip();
    expect(payloads.length).toBeGreaterThan(25);
    const { page, context } = await newPage();
    const ran: string[] = [];
    page.on("dialog", async (dialog) => {
      ran.push(`${page.url()}: dialog ${dialog.message()}`);
      await dialog.dismiss();
    });
    await page.exposeFunction("__xssRan", (where: string) => ran.push(where));
    // Any of alert/confirm/prompt/print/eval reached from injected markup is reported.
    await page.addInitScript(() => {
      for (const fn of ["alert", "confirm", "prompt", "print"] as const) {
        (window as unknown as Record<string, unknown>)[fn] = () =>
          (window as unknown as { __xssRan: (w: string) => void }).__xssRan(`${location.pathname}: ${fn}`);
      }
    });
    for (let i = 0; i < payloads.length; i++) {
      const res = await page.goto(`${server!.url}/post/xss-${i}`);
      expect(res?.status()).toBe(200);
      await expect.poll(() => page.locator("main").textContent()).toContain("before");
      // Give event handlers (onerror, onfocus, ontoggle, animations) a chance to fire.
      await page
        .locator("main button, main a")
        .first()
        .click({ trial: true, timeout: 200 })
        .catch(() => {});
      await page.waitForTimeout(150);
      const html = await page.locator("main .prose-article").innerHTML();
      expect(html, `payload ${i}: ${payloads[i]}`).not.toMatch(
        /<(script|iframe|object|embed|svg|math|style|base|meta|form|input|template)\b/i,
      );
      expect(html, `payload ${i}: ${payloads[i]}`).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
      expect(html, `payload ${i}: ${payloads[i]}`).not.toMatch(
        /\s(href|src|action|formaction|xlink:href)\s*=\s*"\s*(javascript|data|vbscript):/i,
      );
    }
    expect(ran).toEqual([]);
    await context.close();
  });
});
