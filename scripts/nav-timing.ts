/**
 * `npm run bench:nav`: time from a click on a public link to the first paint
 * of the next page, in Chromium (Debian's, headless), as a visitor does it:
 * the pointer rests on the link for NAV_HOVER_MS (300) before the click.
 *
 * "First paint of the next page": for a page load, its first contentful
 * paint; for a page the Speculation Rules prerendered, the first frame after
 * it is shown (activation); for a client-side navigation (the React Router
 * app the public pages were before issue 15), the frame after the one in
 * which the URL and the page's content have changed. Measured on loopback from the built
 * production server (page cache on), NAV_RUNS (7) times per link; the median
 * and the slowest run are printed, and whether the page was prerendered.
 *
 * Options (env): BUILD_DIR (default build), NAV_RUNS, NAV_HOVER_MS.
 */
import fs from "node:fs";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM, startServer } from "../tests/e2e/support";

const RUNS = Number(process.env.NAV_RUNS ?? 7);
const HOVER_MS = Number(process.env.NAV_HOVER_MS ?? 300);
const BUILD_DIR = process.env.BUILD_DIR ?? "build";

const LINKS: { from: string; name: string; link: (page: Page) => ReturnType<Page["locator"]> }[] = [
  {
    from: "/",
    name: "home → our team (navigation)",
    link: (p) => p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "our team" }),
  },
  { from: "/team", name: "team → a lawyer (card)", link: (p) => p.locator('main a[href^="/lawyer/"]').first() },
  { from: "/insights", name: "insights → a post (card)", link: (p) => p.locator('main a[href^="/post/"]').first() },
  { from: "/cyber", name: "practice → Team tab", link: (p) => p.getByRole("link", { name: "Team", exact: true }) },
];

// In every document: when its first paint was shown, in the epoch clock shared by all documents.
const RECORDER = `(() => {
  const epoch = () => performance.timeOrigin + performance.now();
  const frame = () => requestAnimationFrame(() => setTimeout(() => { window.__shownAt = epoch(); }, 0));
  if (document.prerendering) {
    window.__prerendered = true;
    document.addEventListener("prerenderingchange", frame, { once: true });
  } else {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "first-contentful-paint") window.__shownAt = performance.timeOrigin + e.startTime;
    }).observe({ type: "paint", buffered: true });
  }
})();`;

// In the page clicked on: the click time, and for a client-side navigation the frame that shows the new heading.
const WATCH_SAME_DOCUMENT = `(() => {
  window.__shownAt = undefined;
  const state = () => location.href + "|" + (document.querySelector("main")?.textContent ?? "").length;
  const before = state();
  document.addEventListener("click", () => { sessionStorage.setItem("nav-click", String(performance.timeOrigin + performance.now())); }, { capture: true, once: true });
  const loop = () => {
    if (location.href !== before.split("|")[0] && state() !== before) return requestAnimationFrame(() => { window.__shownAt = performance.timeOrigin + performance.now(); });
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
})();`;

function median(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

if (!fs.existsSync(`${BUILD_DIR}/server/index.js`)) throw new Error(`No build in ${BUILD_DIR}/: run \`npm run build\` first.`);
const server = await startServer({ env: { BUILD_DIR, LOG_LEVEL: "error" }, quiet: true });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
});
try {
  console.log(
    `Click to the next page's first paint, Chromium ${browser.version()}, loopback, desktop 1280×800, pointer on the link ${HOVER_MS} ms before the click; ${RUNS} runs each.\n`,
  );
  for (const { from, name, link } of LINKS) {
    const times: number[] = [];
    let prerendered = 0;
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.fulfill({ status: 204, body: "" }));
      await context.addInitScript(RECORDER);
      const page = await context.newPage();
      await page.goto(server.url + from, { waitUntil: "load" });
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(300);
      await page.evaluate(WATCH_SAME_DOCUMENT);
      const target = link(page);
      await target.scrollIntoViewIfNeeded();
      await target.hover();
      await page.waitForTimeout(HOVER_MS);
      const url = page.url();
      await target.click();
      await page.waitForFunction(
        (old) => location.href !== old && typeof (window as unknown as { __shownAt?: number }).__shownAt === "number",
        url,
        { timeout: 10_000 },
      );
      const { shownAt, clickAt, wasPrerendered } = await page.evaluate(() => ({
        shownAt: (window as unknown as { __shownAt: number }).__shownAt,
        clickAt: Number(sessionStorage.getItem("nav-click")),
        wasPrerendered: Boolean((window as unknown as { __prerendered?: boolean }).__prerendered),
      }));
      times.push(shownAt - clickAt);
      if (wasPrerendered) prerendered++;
      await context.close();
    }
    console.log(
      `${name.padEnd(34)} median ${median(times).toFixed(0).padStart(4)} ms, slowest ${Math.max(...times)
        .toFixed(0)
        .padStart(4)} ms; prerendered ${prerendered}/${RUNS}`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
