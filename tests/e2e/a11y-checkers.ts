/**
 * The accessibility checkers of the browser suite, in one place, for any page:
 *
 *   runA11yCheckers(page)  axe-core (WCAG 2.1 A/AA rules: violations),
 *                          HTML_CodeSniffer (WCAG2AA standard: errors) and
 *                          IBM Equal Access (WCAG_2_1 policy: violations)
 *                          on the page as it is now (scroll position, open
 *                          menus and all). Returns their findings; [] is clean.
 *   validateHtml(docs)     the Nu HTML Checker (vnu.jar, needs Java:
 *                          `apt-get install -y default-jre-headless`) on
 *                          server HTML; returns its errors. Through the
 *                          checker's own web service when one runs for the
 *                          test run (startHtmlChecker, VNU_URL: global-setup.ts
 *                          starts it), else a Java run of its command line.
 *
 * The checkers are injected through the DevTools protocol (page.evaluate),
 * which the page's Content-Security-Policy does not govern: the page is
 * checked with its real CSP. All three measure text in a `position: fixed`
 * element against that element's own ground and its ancestors', not against
 * what happens to be under it.
 *
 *   const findings = await runA11yCheckers(page);
 *   expect(findings).toEqual([]);
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "playwright-core";

export type Checker = "axe" | "htmlcs" | "ibm";
export type Finding = { checker: Checker; rule: string; message: string; targets: string[] };

const ROOT = path.resolve(import.meta.dirname, "../..");
const HTMLCS_SOURCE = path.join(ROOT, "node_modules/html_codesniffer/build/HTMLCS.js");
const ACE_SOURCE = path.join(ROOT, "node_modules/accessibility-checker-engine/ace.js");
const VNU_JAR = path.join(ROOT, "node_modules/vnu-jar/build/dist/vnu.jar");
/** axe-core's minified build: the same rules as the package's `source` (its unminified axe.js, 1.5 MB), in 0.65 MB to send and compile each document. */
const AXE_SOURCE = path.join(ROOT, "node_modules/axe-core/axe.min.js");

let axe: string | undefined;
let htmlcs: string | undefined;
let ace: string | undefined;

/*
 * The in-page halves are plain JavaScript strings: a function handed to
 * page.evaluate would carry the transpiler's helpers (esbuild's __name).
 *
 * axe-core runs in the page itself (its published build, injected once a document, as the other
 * two), on the top document: ~0.2 s a check, against 1.1-1.9 s through @axe-core/playwright, which
 * injects axe again on every call and opens a blank page of its own to finish each run. Frames are
 * not entered: the only frame of the site is the office map, another site's page.
 */
const AXE_RUN = `axe.run(document, {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  resultTypes: ["violations"],
  iframes: false,
}).then((result) => result.violations.map((v) => ({
  checker: "axe",
  rule: v.id,
  message: v.help,
  targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
})))`;

/** Runs a checker's script in the page unless this document has its global already (once a document). */
async function injectOnce(page: Page, global: string, script: () => string): Promise<void> {
  if (!(await page.evaluate(`typeof ${global} !== 'undefined'`))) await page.evaluate(script());
}

async function axeFindings(page: Page): Promise<Finding[]> {
  await injectOnce(page, "axe", () => (axe ??= fs.readFileSync(AXE_SOURCE, "utf8")));
  return page.evaluate<Finding[]>(AXE_RUN);
}

const HTMLCS_RUN = `new Promise((resolve) => {
  const describe = (el) => !el || el.nodeType !== 1 ? "document"
    : el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
      + (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\\s+/).slice(0, 3).join(".") : "")
      + ' "' + (el.textContent || "").trim().slice(0, 40) + '"';
  HTMLCS.process("WCAG2AA", document, () => {
    const byRule = new Map();
    for (const m of HTMLCS.getMessages()) {
      if (m.type !== 1) continue; // 1 error, 2 warning, 3 notice
      const found = byRule.get(m.code) || { checker: "htmlcs", rule: m.code, message: m.msg, targets: [] };
      if (found.targets.length < 5) found.targets.push(describe(m.element));
      byRule.set(m.code, found);
    }
    resolve([...byRule.values()]);
  });
})`;

const IBM_RUN = `(async () => {
  const report = await new ace.Checker().check(document, ["WCAG_2_1"]);
  const byRule = new Map();
  for (const r of report.results) {
    if (r.value[0] !== "VIOLATION" || r.value[1] !== "FAIL") continue;
    const found = byRule.get(r.ruleId) || { checker: "ibm", rule: r.ruleId, message: r.message, targets: [] };
    if (found.targets.length < 5) found.targets.push(r.path.dom);
    byRule.set(r.ruleId, found);
  }
  return [...byRule.values()];
})()`;

async function htmlcsFindings(page: Page): Promise<Finding[]> {
  await injectOnce(page, "HTMLCS", () => `${(htmlcs ??= fs.readFileSync(HTMLCS_SOURCE, "utf8"))};window.HTMLCS = HTMLCS;`);
  return page.evaluate<Finding[]>(HTMLCS_RUN);
}

async function ibmFindings(page: Page): Promise<Finding[]> {
  await injectOnce(page, "ace", () => `${(ace ??= fs.readFileSync(ACE_SOURCE, "utf8"))};window.ace = ace;`);
  return page.evaluate<Finding[]>(IBM_RUN);
}

/** axe, HTML_CodeSniffer and IBM Equal Access on the page as it is; their findings ([] when clean). */
export async function runA11yCheckers(page: Page, checkers: Checker[] = ["axe", "htmlcs", "ibm"]): Promise<Finding[]> {
  const findings: Finding[] = [];
  if (checkers.includes("axe")) findings.push(...(await axeFindings(page)));
  if (checkers.includes("htmlcs")) findings.push(...(await htmlcsFindings(page)));
  if (checkers.includes("ibm")) findings.push(...(await ibmFindings(page)));
  return findings;
}

export type HtmlError = { document: string; line?: number; message: string; extract?: string };

/**
 * The Nu HTML Checker's CSS validator predates some CSS that browsers support
 * and Tailwind CSS 4 writes: these messages are about valid CSS, so they are
 * left out — only these exact messages, nothing else about CSS or HTML.
 *   @property             registered custom properties (CSS Properties and Values API, in every engine since 2024)
 *   transition-property   with a custom property name (valid: any <custom-ident>)
 *   margin-trim           inside @supports, a feature test the browser answers itself
 */
export const CSS_THE_CHECKER_DOES_NOT_KNOW: RegExp[] = [
  /^CSS: Unrecognized at-rule “@property”\.?$/,
  /^CSS: “transition-property”: “--[\w-]+” is not a “transition-property” value\.$/,
  /^CSS: “margin-trim”: Property “margin-trim” doesn't exist\.$/,
];

type VnuMessage = { type: string; url?: string; lastLine?: number; message: string; extract?: string };

/**
 * The Nu HTML Checker on whole documents (server HTML): its errors ([] when
 * valid). Through the web service at VNU_URL when there is one (each document
 * a request: ~30 ms once warm, where a Java run of the command line takes 4-5 s
 * to start on 2 busy cores), else in one Java run. Throws with the fix when
 * Java is missing.
 */
export async function validateHtml(documents: { name: string; html: string }[], options: { ignore?: RegExp[] } = {}): Promise<HtmlError[]> {
  const found = process.env.VNU_URL ? await vnuService(process.env.VNU_URL, documents) : await vnuCommandLine(documents);
  return found
    .filter(({ message: m }) => m.type === "error" || m.type === "non-document-error")
    .filter(({ message: m }) => !(options.ignore ?? []).some((pattern) => pattern.test(m.message)))
    .map(({ document, message: m }) => ({ document, line: m.lastLine, message: m.message, extract: m.extract }));
}

/**
 * The checker's web service (the same checks as its command line: HTML, and CSS in style elements and
 * attributes), errors only, one document a request.
 */
async function vnuService(url: string, documents: { name: string; html: string }[]): Promise<{ document: string; message: VnuMessage }[]> {
  const found: { document: string; message: VnuMessage }[] = [];
  for (const doc of documents) {
    const res = await fetch(`${url}/?out=json&level=error`, {
      method: "POST",
      body: doc.html,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
    if (!res.ok) throw new Error(`the Nu HTML Checker's service answered ${res.status} for ${doc.name}`);
    const { messages } = (await res.json()) as { messages: VnuMessage[] };
    found.push(...messages.map((message) => ({ document: doc.name, message })));
  }
  return found;
}

/**
 * The checker's web service on 127.0.0.1:`port` (one Java process for a whole test run: global-setup.ts),
 * ready to answer; its address for VNU_URL. Documents of any size (the service's default limit is 2 MB).
 */
export async function startHtmlChecker(port: number, timeoutMs = 120_000): Promise<{ url: string; stop(): Promise<void> }> {
  const args = [
    "-Dnu.validator.servlet.bind-address=127.0.0.1",
    "-Dnu.validator.servlet.max-file-size=67108864",
    "-cp",
    VNU_JAR,
    "nu.validator.servlet.Main",
    String(port),
  ];
  const child = spawn("java", args, { stdio: ["ignore", "ignore", "pipe"] });
  let out = "";
  child.stderr.on("data", (d) => (out = (out + d).slice(-4000)));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "ENOENT" ? new Error("The Nu HTML Checker needs Java: apt-get install -y default-jre-headless") : error),
    );
  });
  await spawned;
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill();
    });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the Nu HTML Checker's service exited with ${child.exitCode}:\n${out}`);
    try {
      // A first document: the service is up, and its checker loaded (the first one takes a few seconds).
      const res = await fetch(`${url}/?out=json&level=error`, {
        method: "POST",
        body: '<!doctype html><html lang="en"><head><title>Ready</title></head><body><p>Ready</p></body></html>',
        headers: { "content-type": "text/html; charset=utf-8" },
      });
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Nu HTML Checker's service did not start within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, stop };
}

/** The checker's command line on `documents` in one Java run (when no service runs). */
async function vnuCommandLine(documents: { name: string; html: string }[]): Promise<{ document: string; message: VnuMessage }[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vnu-"));
  try {
    const files = documents.map((doc, i) => {
      const file = path.join(dir, `${String(i).padStart(3, "0")}.html`);
      fs.writeFileSync(file, doc.html);
      return file;
    });
    let output: string;
    try {
      const result = await promisify(execFile)("java", ["-jar", VNU_JAR, "--errors-only", "--format", "json", ...files], {
        maxBuffer: 64 << 20,
      });
      output = result.stderr || result.stdout;
    } catch (error) {
      const e = error as NodeJS.ErrnoException & { stderr?: string; stdout?: string };
      if (e.code === "ENOENT") throw new Error("The Nu HTML Checker needs Java: apt-get install -y default-jre-headless");
      output = e.stderr || e.stdout || "";
      if (!output.trim().startsWith("{")) throw error;
    }
    const { messages } = JSON.parse(output) as { messages: VnuMessage[] };
    return messages.map((message) => ({
      document: documents[Number(path.basename(decodeURIComponent(message.url ?? "")).slice(0, 3))]?.name ?? message.url ?? "",
      message,
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
