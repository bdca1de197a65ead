/**
 * Several instances behind the reference nginx (deploy/nginx/harrow-kline.conf)
 * on one PostgreSQL and one S3-compatible bucket behave as one site:
 * - the proxy caches public pages, never the sign-in page, the dashboard,
 *   previews or a request with a cookie;
 * - a session made through one instance is accepted by the others, and
 *   sign-in limits count failures made through any instance;
 * - a staff save through one instance shows through the proxy and on the others;
 * - a portrait a staff member chooses in Chromium's new-member form, through
 *   the proxy, is drawn on the lawyer's page for a visitor and served by every
 *   instance straight from the bucket;
 * - under steady traffic one instance is killed (SIGKILL) and started again:
 *   no GET through the proxy fails, and a picture uploaded meanwhile is served
 *   by every instance;
 * - with the bucket gone, public pages keep working and the staff form says
 *   what happened, keeping what was typed.
 * On the cluster of tests/e2e/cluster-fixture.ts, which statistics uses too:
 * this file reads only what it makes.
 * Needs PostgreSQL (TEST_DATABASE_URL or the machine's) and Debian's nginx.
 */
import sharp from "sharp";
import { LOCKED_MESSAGE } from "~/.server/auth/login-limits";
import { MSG } from "~/lib/forms/messages";
import { signInCookie, type Cluster } from "../support/cluster";
import { CLUSTER_START_TIMEOUT, describe, expect, it, onTestFinished } from "./cluster-fixture";
import { ADMIN_EMAIL, ADMIN_PASSWORD, dashboardReady, deleteFromList, signInAsStaff, startServer, testJpeg } from "./support";

let cluster: Cluster | undefined;
let skipReason = "";
let cookie = "";

it.beforeAll(async ({ nginxCluster }) => {
  ({ cluster, skipReason } = nginxCluster);
  if (!cluster) return;
  await cluster.heal();
  cookie = await signInCookie(cluster.url, ADMIN_EMAIL, ADMIN_PASSWORD);
}, CLUSTER_START_TIMEOUT);

function site(skip: (note?: string) => void): Cluster {
  if (!cluster) skip(skipReason);
  return cluster!;
}

/** Headers of a form post sent straight to an instance as the proxy would forward it (the site's address). */
const asThroughProxy = (c: Cluster) => ({ origin: c.url, "x-forwarded-host": new URL(c.url).host });
const html = async (response: Response) => ({
  status: response.status,
  cache: response.headers.get("x-proxy-cache"),
  body: await response.text(),
});
const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

describe("several instances behind the reference nginx", () => {
  it("the proxy caches public pages, never the sign-in page, the dashboard or anything with a cookie", async ({ skip }) => {
    const c = site(skip);
    const statuses: (string | null)[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await html(await fetch(`${c.url}/team`))).cache);
    expect(statuses).toContain("HIT");
    // One cached copy per encoding: each visitor gets the encoding its browser accepts, from the cache.
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip, deflate", "gzip"],
      ["identity", null],
      ["", null],
      ["br;q=1.0, gzip;q=0.8", "br"],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const r = await fetch(`${c.url}/insights`, { headers: { "accept-encoding": accept } });
        expect(r.headers.get("content-encoding"), accept).toBe(encoding);
        expect(await r.text()).toContain("</html>");
        // Served from the cache: HIT, or - when the copy's 1 s has just run out - STALE (the first request
        // after expiry, which starts the background refresh) or UPDATING (while that refresh runs).
        if (i === 2) expect(r.headers.get("x-proxy-cache")).toMatch(/^(HIT|STALE|UPDATING)$/);
      }
    }

    // Previews too: a shared preview link is opened without a cookie, and a revoked one must stop at once.
    for (const path of ["/admin", "/dashboard", "/healthz", "/readyz", "/preview/shared/post/not-a-token"]) {
      for (let i = 0; i < 3; i++) {
        const r = await fetch(`${c.url}${path}`, { redirect: "manual" });
        expect(r.headers.get("x-proxy-cache"), path).toBe("BYPASS");
      }
    }
    for (let i = 0; i < 3; i++) {
      const signedIn = await html(await fetch(`${c.url}/dashboard`, { headers: { cookie }, redirect: "manual" }));
      expect(signedIn.status).toBe(200);
      expect(signedIn.cache).toBe("BYPASS");
      const withCookie = await fetch(`${c.url}/team`, { headers: { cookie } });
      expect(withCookie.headers.get("x-proxy-cache")).toBe("BYPASS");
    }
    // Signed out, the dashboard is never a cached copy of someone's page.
    const anonymous = await fetch(`${c.url}/dashboard`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
  });

  it("a session made through the proxy is accepted by every instance; sign-in limits count failures made on any", async ({ skip }) => {
    const c = site(skip);
    for (const instance of c.instances) {
      const r = await fetch(`${instance.url}/dashboard`, { headers: { cookie }, redirect: "manual" });
      expect(r.status, instance.url).toBe(200);
    }
    const tryWrong = (url: string) =>
      fetch(`${url}/admin`, {
        method: "POST",
        redirect: "manual",
        headers: { ...asThroughProxy(c), "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.9" },
        body: new URLSearchParams({ email: "limits@example.com", password: "wrong-password-here" }),
      }).then(html);
    const [a, b] = c.instances;
    for (const instance of [a, b, a, b, a]) expect((await tryWrong(instance.url)).body).not.toContain(escapeHtml(LOCKED_MESSAGE));
    // The sixth attempt, on either instance, is refused: the five failures were counted together.
    const sixth = await tryWrong(b.url);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toContain(escapeHtml(LOCKED_MESSAGE));
  });

  it("a staff save through one instance shows through the proxy and on every instance", async ({ skip }) => {
    const c = site(skip);
    const marker = `Opens ${Date.now().toString(36)}`;
    const saved = await fetch(`${c.instances[0].url}/dashboard/hours/edit`, {
      method: "POST",
      redirect: "manual",
      headers: { ...asThroughProxy(c), "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ start_time: marker, end_time: "5:00" }),
    });
    expect(saved.status).toBe(302);
    for (const url of [c.url, ...c.instances.map((i) => i.url)]) {
      await expect.poll(async () => (await (await fetch(`${url}/`)).text()).includes(marker), { timeout: 5000, interval: 100 }).toBe(true);
    }
  });

  it("a portrait a staff member uploads in Chromium through the proxy is in the bucket: a visitor sees it, every instance serves it", async ({
    skip,
    newPage,
  }) => {
    const c = site(skip);
    const member = `Portrait Upload ${Date.now().toString(36)}`;
    onTestFinished(() => deleteFromList("lawyers", member, c.url));
    const { page } = await newPage({ viewport: { width: 1280, height: 900 } });
    await signInAsStaff(page, c.url);
    await page.goto(`${c.url}/dashboard`);
    await dashboardReady(page);
    await page
      .getByRole("link", { name: /Manage Team/ })
      .first()
      .click();
    await page.waitForURL(`${c.url}/dashboard/lawyers`);
    await dashboardReady(page);
    await page.getByRole("link", { name: "ADD NEW TEAM MEMBER" }).click();
    await page.waitForURL(`${c.url}/dashboard/lawyers/new`);
    await dashboardReady(page);
    await page.locator("#field-full_name").fill(member);
    await page.locator("#field-title").fill("Associate");
    await page.locator("#field-email").fill("portrait.upload@example.com");
    await page.locator("#field-extension").fill("313");
    await page.locator("#field-desc").fill("Uploaded in the browser through the proxy.");
    const photo = await testJpeg(400, 500);
    await page.locator("#field-photo").setInputFiles({ name: "portrait.jpg", mimeType: "image/jpeg", buffer: photo });
    await page.getByRole("img", { name: "Preview of the chosen picture" }).waitFor();
    await page.getByRole("button", { name: "ADD TEAM MEMBER" }).click();
    await page.getByTestId("status").getByText(`${member} has been added successfully`, { exact: true }).waitFor({ timeout: 15_000 });

    const [row] = await c.query<{ slug: string; img: string }>("select slug, img from team where full_name = $1", [member]);
    expect(row?.img).toMatch(/^[a-z0-9-]+\.jpg$/);
    // A visitor (no cookie) through the proxy: the portrait is drawn, from the width the browser chose.
    const { page: visitor } = await newPage({ viewport: { width: 1280, height: 900 } });
    expect((await visitor.goto(`${c.url}/lawyer/${row.slug}`))?.status()).toBe(200);
    const portrait = visitor.getByRole("img", { name: `Portrait of ${member}` });
    await expect
      .poll(() => portrait.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : -1)), {
        timeout: 10_000,
        message: "the portrait's naturalWidth on the visitor's page",
      })
      .toBeGreaterThan(0);
    const loaded = new URL(await portrait.evaluate((img: HTMLImageElement) => img.currentSrc));
    expect(loaded.origin).toBe(c.url);
    // What the visitor loaded and the original are served by each instance, straight (not through the proxy): the bucket's.
    for (const path of new Set([loaded.pathname, `/images/team/${row.img}`])) {
      for (const instance of c.instances) {
        const r = await fetch(`${instance.url}${path}`);
        expect(r.status, `${instance.url}${path}`).toBe(200);
        expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
    }
  });

  it("an instance killed with SIGKILL and started again under load: no GET fails through the proxy; a picture uploaded meanwhile is served by every instance", async ({
    skip,
  }) => {
    const c = site(skip);
    const team = await (await fetch(`${c.url}/team`)).text();
    const lawyer = /href="(\/lawyer\/[^"/]+)"/.exec(team)?.[1] ?? "/team";
    const picture = /(\/images\/team\/[a-z0-9-]+\.(?:jpg|png|webp))/.exec(team)?.[1];
    expect(picture).toBeDefined();
    // Cached pages, pictures, and requests that always reach an instance (a cookie bypasses the proxy cache).
    const targets: { path: string; headers?: Record<string, string> }[] = [
      { path: "/" },
      { path: "/team" },
      { path: lawyer },
      { path: "/insights" },
      { path: picture! },
      { path: "/team", headers: { cookie: "visitor=1" } },
      { path: lawyer, headers: { cookie: "visitor=1" } },
      { path: "/insights?page=2", headers: { cookie: "visitor=1" } },
      { path: "/dashboard", headers: { cookie } },
    ];
    const failures: string[] = [];
    let requests = 0;
    let running = true;
    const worker = async (n: number) => {
      for (let i = n; running; i++) {
        const target = targets[i % targets.length];
        try {
          const r = await fetch(`${c.url}${target.path}`, { headers: target.headers, redirect: "manual" });
          await r.arrayBuffer();
          requests++;
          if (r.status !== 200) failures.push(`${target.path} ${r.status}`);
        } catch (error) {
          requests++;
          failures.push(`${target.path} ${(error as Error).message}`);
        }
      }
    };
    const workers = Array.from({ length: 12 }, (_, n) => worker(n));
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    await sleep(1500);
    // What nginx logs from here on (the shared cluster's log may hold another file's restarts).
    const errorsBefore = c.nginx.errorLog().length;
    const victim = c.instances[1];
    expect(await victim.stop("SIGKILL")).toBeNull();
    const atKill = requests;
    // A picture uploaded through the proxy while one instance is down.
    const photo = await sharp({ create: { width: 400, height: 500, channels: 3, background: "#7a4b2c" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    for (const [k, v] of Object.entries({
      full_name: "Uploaded During Load",
      title: "Associate",
      email: "udl@example.com",
      extension: "311",
      mobile: "",
      desc: "Bio",
    }))
      form.append(k, v);
    form.append("AOP", "cyber");
    form.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "portrait.jpg");
    const upload = await fetch(`${c.url}/dashboard/lawyers/new`, {
      method: "POST",
      body: form,
      redirect: "manual",
      headers: { cookie, origin: c.url },
    });
    expect(upload.status).toBe(302);
    await sleep(1000);
    await c.restart(1);
    await sleep(2500);
    running = false;
    await Promise.all(workers);

    expect(requests - atKill).toBeGreaterThan(50);
    expect(failures).toEqual([]);
    expect(c.nginx.errorLog().slice(errorsBefore)).toMatch(/connect\(\) failed|upstream prematurely closed|reset by peer/);

    const [row] = await c.query<{ img: string }>("select img from team where full_name = $1", ["Uploaded During Load"]);
    expect(row?.img).toMatch(/\.jpg$/);
    const stem = row.img.replace(/\.jpg$/, "");
    for (const key of [`team/${row.img}`, `team/${stem}-640.webp`, `team/${stem}-320.avif`]) {
      const bodies: Buffer[] = [];
      for (const base of [...c.instances.map((i) => i.url), c.url]) {
        const r = await fetch(`${base}/images/${key}`);
        expect(r.status, `${base}/images/${key}`).toBe(200);
        bodies.push(Buffer.from(await r.arrayBuffer()));
      }
      expect(bodies.every((b) => b.length > 100 && b.equals(bodies[0]))).toBe(true);
    }
  });

  it("with PICTURE_BASE_URL, pages point at the bucket, which serves every width itself (AVIF ones made at start-up)", async ({ skip }) => {
    const c = site(skip);
    const base = `${c.bucket.endpoint}/${c.bucket.bucket}`;
    const direct = await startServer({ env: { ...c.env, PICTURE_BASE_URL: base }, quiet: true });
    try {
      const page = await (await fetch(`${direct.url}/team`)).text();
      const src = new RegExp(`src="(${base}/team/[a-z0-9-]+\\.jpg)"`).exec(page)?.[1];
      expect(src).toBeDefined();
      expect(page).not.toMatch(/(src|srcSet|srcset)="\/images\//);
      const srcsets = [...page.matchAll(/srcSet="([^"]+)"/gi)].map((m) => m[1]).filter((s) => s.startsWith(base));
      expect(srcsets.some((s) => s.includes(".avif"))).toBe(true);
      const avif = srcsets
        .find((s) => s.includes(".avif"))!
        .split(", ")
        .map((entry) => entry.split(" ")[0]);
      const original = await fetch(src!);
      expect(original.status).toBe(200);
      expect(original.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      // The demo pictures were stored before PICTURE_BASE_URL: their AVIF widths are made in the background at start-up.
      for (const url of avif) {
        await expect.poll(async () => (await fetch(url)).status, { timeout: 30_000, interval: 250 }).toBe(200);
        expect((await fetch(url)).headers.get("content-type")).toBe("image/avif");
      }
    } finally {
      await direct.stop();
    }
  });

  it("without the bucket, public pages keep working and the staff form says what happened, keeping what was typed", async ({ skip }) => {
    const c = site(skip);
    const team = await (await fetch(`${c.url}/team`)).text();
    const picture = /(\/images\/team\/[a-z0-9-]+\.(?:jpg|png|webp))/.exec(team)?.[1];
    await fetch(`${c.url}${picture}`); // in the proxy's cache
    await c.bucket.stop();

    for (const path of ["/", "/team", "/insights"]) {
      for (const url of [c.url, ...c.instances.map((i) => i.url)]) {
        const r = await fetch(`${url}${path}`, { headers: { cookie: "visitor=1" } });
        expect(r.status, `${url}${path}`).toBe(200);
      }
    }
    // A picture the proxy keeps is still served; one it does not is a 503 "try again", not a 404.
    expect((await fetch(`${c.url}${picture}`)).status).toBe(200);
    expect((await fetch(`${c.instances[0].url}${picture}`)).status).toBe(503);

    const photo = await sharp({ create: { width: 200, height: 250, channels: 3, background: "#2c4b7a" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    for (const [k, v] of Object.entries({
      full_name: "Bucket Down Person",
      title: "Counsel",
      email: "bdp@example.com",
      extension: "312",
      mobile: "",
      desc: "Typed while the bucket was gone",
    })) {
      form.append(k, v);
    }
    form.append("AOP", "insurance");
    form.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "portrait.jpg");
    const answer = await html(
      await fetch(`${c.url}/dashboard/lawyers/new`, { method: "POST", body: form, redirect: "manual", headers: { cookie, origin: c.url } }),
    );
    expect(answer.status).toBe(503);
    expect(answer.body).toContain(escapeHtml(MSG.pictureStoreDown));
    expect(answer.body).toContain("Bucket Down Person");
    expect(answer.body).toContain("Typed while the bucket was gone");
    expect(await c.query("select id from team where full_name = $1", ["Bucket Down Person"])).toEqual([]);
  });
});
