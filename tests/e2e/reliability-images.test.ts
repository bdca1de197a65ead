/**
 * Serving of uploaded pictures by the built server: a demo picture answers
 * with its image type, `nosniff` and a year of immutable caching; anything
 * that is not a stored picture key (traversal, other extensions, odd
 * encodings) answers 404 — never a file's content, never text/html, never 5xx.
 *
 * Run: BUILD_DIR=build-rel npx react-router build &&
 *      BUILD_DIR=build-rel npx vitest run --config vitest.e2e.config.ts tests/e2e/reliability-images.test.ts
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll } from "vitest";
import { describe, expect, it, ownServer } from "./fixture";
import { BUILD_DIR, rawRequest, requireBuild } from "./reliability-support";

let teamDir: string;

beforeAll(() => requireBuild());
const server = ownServer({ env: { BUILD_DIR } });
beforeAll(() => {
  teamDir = path.join(server.dataDir, "uploads", "team");
});

const PACKAGE_JSON = '"name": "firm-site"';

describe("uploaded pictures", () => {
  it("a demo picture (original and WebP width) answers with its image type, nosniff and immutable caching, byte for byte", async () => {
    const files = fs.readdirSync(teamDir);
    const original = files.find((f) => /^[0-9a-f-]{36}\.jpg$/.test(f));
    const variant = files.find((f) => /^[0-9a-f-]{36}-320\.webp$/.test(f));
    expect(original, `no demo portrait in ${teamDir}`).toBeDefined();
    expect(variant).toBeDefined();
    // The home page or a lawyer's page links pictures by these URLs.
    for (const [file, type] of [
      [original!, "image/jpeg"],
      [variant!, "image/webp"],
    ] as const) {
      const res = await rawRequest(server.url, `/images/team/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers["content-type"], file).toBe(type);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["cache-control"]).toMatch(/max-age=31536000/);
      expect(res.headers["cache-control"]).toMatch(/immutable/);
      expect(Buffer.compare(res.body, fs.readFileSync(path.join(teamDir, file))), `${file} bytes`).toBe(0);
    }
  });

  it("an AVIF width is made from the original on its first request, served as image/avif, then kept on disk", async () => {
    const original = fs.readdirSync(teamDir).find((f) => /^[0-9a-f-]{36}\.jpg$/.test(f))!;
    const avif = original.replace(/\.jpg$/, "-640.avif");
    fs.rmSync(path.join(teamDir, avif), { force: true });
    const res = await rawRequest(server.url, `/images/team/${avif}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/avif");
    expect(res.headers["cache-control"]).toMatch(/immutable/);
    expect(res.body.subarray(4, 12).toString("latin1")).toBe("ftypavif");
    expect(Buffer.compare(res.body, fs.readFileSync(path.join(teamDir, avif)))).toBe(0);
    // A width the portraits do not have is a 404, and nothing is made for it.
    const odd = original.replace(/\.jpg$/, "-480.avif");
    expect((await rawRequest(server.url, `/images/team/${odd}`)).status).toBe(404);
    expect(fs.existsSync(path.join(teamDir, odd))).toBe(false);
  });

  it("bytes that are really HTML, stored under a picture name, are still sent as an image with nosniff", async () => {
    const name = "0badc0de-0000-4000-8000-000000000000.jpg";
    fs.writeFileSync(path.join(teamDir, name), "<html><script>alert(document.cookie)</script></html>");
    const res = await rawRequest(server.url, `/images/team/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("files in the uploads folder whose names are not picture keys are never served", async () => {
    fs.writeFileSync(path.join(teamDir, "evil.html"), "<script>alert('stored')</script>");
    fs.writeFileSync(path.join(teamDir, "evil.svg"), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    fs.writeFileSync(path.join(teamDir, "Evil.JPG"), "<script>alert('case')</script>");
    for (const name of ["evil.html", "evil.svg", "Evil.JPG"]) {
      const res = await rawRequest(server.url, `/images/team/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body.toString("utf8"), name).not.toContain("alert(");
    }
  });

  const HOSTILE = [
    "/images/team/../../package.json",
    "/images/team/..%2f..%2fpackage.json",
    "/images/team/%2e%2e%2fpackage.json",
    "/images/team/%2e%2e%2f%2e%2e%2fpackage.json",
    "/images/team/%252e%252e%252fpackage.json",
    "/images/articles/..%5c..%5cpackage.json",
    "/images/..%2f..%2fpackage.json",
    "/images/team/x.html",
    "/images/team/x.svg",
    "/images/team/x.jpg.html",
    "/images/team/x.jpg%00.html",
    "/images/team/",
    "/images/team/%25E0", // decodes once to "%E0": decoding it again throws
    "/images/team/%E0%A4%A", // not valid percent-encoding
  ];

  it("traversal, other extensions and odd encodings answer 404, never a file's content, never a 5xx", async () => {
    const seen: string[] = [];
    for (const p of HOSTILE) {
      const res = await rawRequest(server.url, p);
      seen.push(`${p} → ${res.status} ${String(res.headers["content-type"] ?? "")}`);
      expect.soft(res.body.toString("utf8"), `${p} leaked a file`).not.toContain(PACKAGE_JSON);
      expect
        .soft(
          res.status,
          `${p} answered ${res.status}${res.status >= 500 ? " (a server error: the picture route's decoding throws; it should answer 404)" : ""}`,
        )
        .toBe(404);
    }
    console.info(seen.join("\n"));
  });

  it("those misses are never text/html", async () => {
    for (const p of HOSTILE) {
      const res = await rawRequest(server.url, p);
      const type = String(res.headers["content-type"] ?? "");
      expect
        .soft(
          type.startsWith("text/html"),
          `${p} answered ${res.status} ${type}: misses under /images/ fall through to the site's HTML 404 page; ` +
            "server/app.ts should end /images/* with a plain-text 404 instead",
        )
        .toBe(false);
    }
  });
});
