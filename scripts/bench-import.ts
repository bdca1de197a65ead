/**
 * `npm run bench:import`: the WordPress importer on a large export.
 *
 * 1. Writes a generated export (streamed to a file, never whole in memory):
 *    BENCH_POSTS posts (default 5,000, bodies of ~30 KB with Gutenberg
 *    blocks, a shortcode, pictures and links to other posts) and
 *    BENCH_ATTACHMENTS attachments (default 20,000: one in ten a picture,
 *    the rest PDFs): about 200 MB of XML.
 * 2. Serves the old site's files from a local HTTP server (a small PNG and a
 *    small PDF, at a distinct address each).
 * 3. Runs `npm run import:wordpress` on it in a process of its own (with the
 *    script's heap limits, IMPORT_NODE_ARGS: the import's live data is
 *    small, and a larger heap only lets garbage pile up), on a
 *    throwaway PostgreSQL database next to TEST_DATABASE_URL's (default
 *    postgres://postgres@127.0.0.1:5432/postgres; pictures and files in a
 *    temporary DATA_DIR), sampling that process's resident memory every
 *    100 ms. (On the embedded database PGlite itself takes ~480 MB to open
 *    a data folder, before any import: docs/performance.md.)
 * Prints the time, the peak RSS and what the import adds to the app's own load (the same command on an
 * empty export; target < 300 MB), and the importer's counts;
 * exits 1 when the target is missed. BENCH_KEEP=1 keeps the folder.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";

const POSTS = Number(process.env.BENCH_POSTS ?? 5000);
const ATTACHMENTS = Number(process.env.BENCH_ATTACHMENTS ?? 20_000);
const RSS_TARGET_MB = 300;
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const say = (m: string) => console.log(`[bench:import] ${m}`);

const cdata = (t: string) => `<![CDATA[${t}]]>`;

async function writeExport(file: string, origin: string) {
  const out = fs.createWriteStream(file);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((r) => out.once("drain", () => r())));
  await write(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Big old site</title><link>${origin}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${origin}</wp:base_site_url><wp:base_blog_url>${origin}</wp:base_blog_url>
<wp:author><wp:author_login>${cdata("writer")}</wp:author_login><wp:author_email>${cdata("writer@old.example")}</wp:author_email><wp:author_display_name>${cdata("A Writer")}</wp:author_display_name></wp:author>
`);
  for (const [slug, name] of [
    ["insurance", "Insurance"],
    ["cyber", "Cyber"],
    ["construction", "Construction"],
  ])
    await write(
      `<wp:category><wp:category_nicename>${cdata(slug)}</wp:category_nicename><wp:cat_name>${cdata(name)}</wp:cat_name></wp:category>\n`,
    );
  const paragraph =
    "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.</p>\n";
  for (let a = 1; a <= ATTACHMENTS; a++) {
    const picture = a % 10 === 0;
    const url = `${origin}/wp-content/uploads/${2010 + (a % 12)}/0${1 + (a % 9)}/file-${a}.${picture ? "png" : "pdf"}`;
    await write(
      `<item><title>${cdata(`File ${a}`)}</title><link>${origin}/?attachment_id=${100000 + a}</link><dc:creator>${cdata("writer")}</dc:creator><guid isPermaLink="false">${origin}/?attachment_id=${100000 + a}</guid><content:encoded>${cdata("")}</content:encoded><excerpt:encoded>${cdata("")}</excerpt:encoded><wp:post_id>${100000 + a}</wp:post_id><wp:post_date>${cdata("2015-01-01 10:00:00")}</wp:post_date><wp:post_date_gmt>${cdata("2015-01-01 15:00:00")}</wp:post_date_gmt><wp:post_name>${cdata(`file-${a}`)}</wp:post_name><wp:status>${cdata("inherit")}</wp:status><wp:post_parent>0</wp:post_parent><wp:post_type>${cdata("attachment")}</wp:post_type><wp:attachment_url>${cdata(url)}</wp:attachment_url><wp:postmeta><wp:meta_key>${cdata("_wp_attachment_image_alt")}</wp:meta_key><wp:meta_value>${cdata(picture ? `Chart ${a}` : "")}</wp:meta_value></wp:postmeta><wp:postmeta><wp:meta_key>${cdata("_wp_attachment_metadata")}</wp:meta_key><wp:meta_value>${cdata('a:5:{s:5:"width";i:32;s:6:"height";i:32;s:4:"file";s:20:"2015/01/file.png";s:5:"sizes";a:0:{}s:10:"image_meta";a:0:{}}'.repeat(8))}</wp:meta_value></wp:postmeta></item>\n`,
    );
  }
  const perPost = Math.max(1, Math.floor(ATTACHMENTS / POSTS));
  for (let p = 1; p <= POSTS; p++) {
    const files = Array.from({ length: perPost }, (_, k) => (p - 1) * perPost + k + 1).filter((a) => a <= ATTACHMENTS);
    const pictures = files
      .filter((a) => a % 10 === 0)
      .map(
        (a) =>
          `<!-- wp:image --><figure class="wp-block-image"><img src="${origin}/wp-content/uploads/${2010 + (a % 12)}/0${1 + (a % 9)}/file-${a}.png" alt="Chart ${a}"/></figure><!-- /wp:image -->\n`,
      );
    const links = files
      .filter((a) => a % 10 !== 0)
      .map((a) => `<p><a href="${origin}/wp-content/uploads/${2010 + (a % 12)}/0${1 + (a % 9)}/file-${a}.pdf">Document ${a}</a></p>\n`);
    const body = `<!-- wp:paragraph -->\n${paragraph.repeat(130)}<!-- /wp:paragraph -->\n${pictures.join("")}${links.join("")}<p>See <a href="${origin}/${2010 + (p % 12)}/01/post-${Math.max(1, p - 1)}/">the previous post</a>. [caption]<em>caption</em>[/caption]</p>`;
    const category = ["insurance", "cyber", "construction"][p % 3];
    await write(
      `<item><title>${cdata(`Post number ${p}`)}</title><link>${origin}/${2010 + (p % 12)}/01/post-${p}/</link><dc:creator>${cdata("writer")}</dc:creator><guid isPermaLink="false">${origin}/?p=${p}</guid><content:encoded>${cdata(body)}</content:encoded><excerpt:encoded>${cdata(`Summary of post ${p}.`)}</excerpt:encoded><wp:post_id>${p}</wp:post_id><wp:post_date>${cdata("2016-01-01 10:00:00")}</wp:post_date><wp:post_date_gmt>${cdata("2016-01-01 15:00:00")}</wp:post_date_gmt><wp:post_name>${cdata(`post-${p}`)}</wp:post_name><wp:status>${cdata(p % 50 === 0 ? "draft" : "publish")}</wp:status><wp:post_parent>0</wp:post_parent><wp:post_type>${cdata("post")}</wp:post_type><category domain="category" nicename="${category}">${cdata(category)}</category></item>\n`,
    );
  }
  await write("</channel></rss>\n");
  await new Promise<void>((resolve) => out.end(resolve));
}

/**
 * The heap limits of `npm run import:wordpress` (package.json): the old generation at 256 MB, and the
 * young one at 4 MB a semi-space. Loading the modules as ES modules (drizzle-orm's above all) makes
 * ~150 MB of short-lived garbage; V8's default young generation grows to hold it and stays resident
 * (docs/performance.md has the figures).
 */
const IMPORT_NODE_ARGS = ["--max-old-space-size=256", "--max-semi-space-size=4"];

/** One run of the importer's command in a process of its own: its time, exit code, peak RSS (MB) and report. */
async function runImport(args: string[], env: Record<string, string>) {
  const started = Date.now();
  const child = spawn(
    path.resolve("node_modules/.bin/node"),
    [...IMPORT_NODE_ARGS, "--import", "tsx", "scripts/import-wordpress.ts", ...args],
    {
      env: { ...process.env, SEED_DEMO: "false", LOG_LEVEL: "error", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // The report's head (its counts) and its tail (the time); every redirect in between is not kept.
  let head = "";
  let tail = "";
  child.stdout.on("data", (d: Buffer) => {
    if (head.length < 5000) head += d.toString();
    tail = (tail + d.toString()).slice(-2000);
  });
  child.stderr.on("data", (d: Buffer) => process.stderr.write(d));
  let peak = 0;
  const sample = setInterval(() => {
    try {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      /* the process has ended */
    }
  }, 100);
  const code = await new Promise<number | null>((r) => child.on("exit", r));
  clearInterval(sample);
  return { code, peak, seconds: (Date.now() - started) / 1000, head, tail };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-import-"));
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#225588" } })
    .png()
    .toBuffer();
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
  let served = 0;
  const server = http.createServer((req, res) => {
    served++;
    const url = req.url ?? "";
    if (url.endsWith(".png")) res.writeHead(200, { "Content-Type": "image/png", "Content-Length": png.length }).end(png);
    else if (url.endsWith(".pdf")) res.writeHead(200, { "Content-Type": "application/pdf", "Content-Length": pdf.length }).end(pdf);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const file = path.join(dir, "export.xml");
  say(`writing an export of ${POSTS} posts and ${ATTACHMENTS} attachments…`);
  await writeExport(file, origin);
  const mb = fs.statSync(file).size / 1024 / 1024;
  say(`export: ${mb.toFixed(0)} MB`);

  const name = `bench_import_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const env = { DATA_DIR: path.join(dir, "data"), DATABASE_URL: url.toString() };
  // The same command on an export of one post, dry run: what loading the app costs before any import.
  const tiny = path.join(dir, "tiny.xml");
  fs.writeFileSync(
    tiny,
    `<?xml version="1.0"?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><link>${origin}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${origin}</wp:base_site_url></channel></rss>`,
  );
  const baseline = await runImport([tiny, "--dry-run"], env);
  const run = await runImport([file], env);
  server.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  const { code, peak, seconds, head, tail } = run;
  const counts = head.split("\n").filter((l) => /^ {2}(posts|published|articles|files)/.test(l));
  console.log([...counts, ...tail.split("\n").filter((l) => l.startsWith("Import finished"))].join("\n"));
  const growth = peak - baseline.peak;
  say(
    `import of ${mb.toFixed(0)} MB: ${seconds.toFixed(0)} s, exit ${code}, ${served} files served; peak RSS ${peak.toFixed(0)} MB, of which the app's own load (the same command on an empty export) ${baseline.peak.toFixed(0)} MB: the import adds ${growth.toFixed(0)} MB (target < ${RSS_TARGET_MB} MB)`,
  );
  if (process.env.BENCH_KEEP !== "1") fs.rmSync(dir, { recursive: true, force: true });
  if (code !== 0 || growth >= RSS_TARGET_MB) process.exit(1);
}

await main();
