/**
 * `npm run import:wordpress -- <export.xml> [--dry-run] [options]`: imports
 * a WordPress export (Tools → Export → All content) into this site: posts
 * (and pages, unless --pages=skip) as articles, attachments and pictures
 * downloaded from the old site, links rewritten, and a 301 from every old
 * address (app/.server/wordpress/import.ts). --dry-run writes nothing and
 * prints the report: counts, the category mapping, unmatched authors, every
 * redirect and every problem. Run it again with a newer export: only what
 * changed is written.
 *
 * Options:
 *   --dry-run                       write nothing, print the report
 *   --pages=articles|skip           pages become articles (default) or are skipped
 *   --map=<category slug>=<area>    insurance, construction, cyber, events, news or none (repeat)
 *   --default-category=<area>       for articles with no mapped category (default insurance)
 *   --json                          the report as JSON on stdout
 */
import path from "node:path";
import { systemActor } from "~/.server/db/audit";
import { setSitePatterns } from "~/.server/http/route-table";
import { CATEGORY_TARGETS, ImportError, importWordPress, type CategoryTarget, type ImportReport } from "~/.server/wordpress/import";
import { WxrError } from "~/.server/wordpress/wxr";
import { ARTICLE_CATEGORIES, type ArticleCategory } from "~/lib/practice";
import { patternsOfConfig } from "~/lib/route-patterns";
import routes from "~/routes";
import { runScript, UsageError } from "./cli";

const USAGE =
  "Usage: npm run import:wordpress -- <export.xml> [--dry-run] [--pages=articles|skip] [--map=<category slug>=<insurance|construction|cyber|events|news|none>]… [--default-category=<area>] [--json]";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error(USAGE);
  process.exit(1);
}
const flag = (name: string) => args.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const dryRun = args.includes("--dry-run");
const json = args.includes("--json");

function options() {
  const given = flag("pages")[0] ?? "articles";
  if (given !== "articles" && given !== "skip") throw new UsageError(`--pages must be articles or skip, not "${given}".`);
  const pages: "articles" | "skip" = given;
  const categoryMap: Record<string, CategoryTarget> = {};
  for (const m of flag("map")) {
    const [slug, target] = m.split("=");
    if (!slug || !(CATEGORY_TARGETS as readonly string[]).includes(target ?? "")) {
      throw new UsageError(`--map=${m}: write --map=<category slug>=<${CATEGORY_TARGETS.join("|")}>.`);
    }
    categoryMap[slug] = target as CategoryTarget;
  }
  const defaultCategory = flag("default-category")[0] ?? "insurance";
  if (!(ARTICLE_CATEGORIES as readonly string[]).includes(defaultCategory)) {
    throw new UsageError(`--default-category must be one of ${ARTICLE_CATEGORIES.join(", ")}.`);
  }
  for (const a of args) {
    if (a.startsWith("--") && !["--dry-run", "--json"].includes(a) && !/^--(pages|map|default-category)=/.test(a))
      throw new UsageError(`Unknown option ${a}.\n${USAGE}`);
  }
  return { pages: pages, categoryMap, defaultCategory: defaultCategory as ArticleCategory };
}

/** The report as a person reads it in a terminal. */
export function printReport(report: ImportReport) {
  const lines: string[] = [];
  const c = report.counts;
  lines.push(`${report.dryRun ? "DRY RUN (nothing written): " : ""}WordPress export of ${report.site} (WXR ${report.wxrVersion || "?"})`);
  lines.push("", "Counts");
  lines.push(
    `  posts ${c.posts}, pages ${c.pages}${report.pages === "skip" ? " (skipped)" : ""}, attachments ${c.attachments}, other items skipped ${c.skipped}`,
  );
  lines.push(`  published ${c.published}, drafts ${c.drafts}, scheduled ${c.scheduled}, private ${c.private}`);
  lines.push(
    `  articles ${report.dryRun ? "to create" : "created"} ${c.created}, ${report.dryRun ? "to update" : "updated"} ${c.updated}, unchanged ${c.unchanged}, kept (edited here) ${c.keptLocalEdits}`,
  );
  lines.push(
    `  files downloaded ${c.filesDownloaded}, already here ${c.filesKnown}, failed ${c.filesFailed}; redirects ${c.redirects}${report.dryRun ? "" : ` (${c.redirectsWritten} new or changed)`}`,
  );
  lines.push("", `Categories (→ what they become; articles with none: ${report.defaultCategory})`);
  for (const cat of report.categories)
    lines.push(
      `  ${cat.slug} “${cat.name}” (${cat.posts}) → ${cat.mappedTo}${cat.known ? "" : "   UNKNOWN: map it with --map=" + cat.slug + "=<area>"}`,
    );
  const unmatched = report.authors.filter((a) => !a.member);
  lines.push("", "Authors");
  for (const a of report.authors)
    lines.push(
      `  ${a.login} “${a.name}” ${a.email} (${a.posts}) → ${a.member ? `team member ${a.member.name}` : "NOT ON THE TEAM: kept as text"}`,
    );
  if (!unmatched.length) lines.push("  (every author matched a team member)");
  lines.push("", `Redirects (${report.redirects.length}, each 301, one hop)`);
  for (const r of report.redirects) lines.push(`  ${r.from} → ${r.to}`);
  lines.push("", `Problems (${report.problems.length})`);
  for (const p of report.problems) lines.push(`  ${p.item}: ${p.message}`);
  console.log(lines.join("\n"));
}

await runScript(async () => {
  const chosen = options();
  const patterns = patternsOfConfig(routes);
  setSitePatterns(patterns);
  const started = Date.now();
  let last = 0;
  try {
    const report = await importWordPress({
      file: path.resolve(file),
      dryRun,
      ...chosen,
      actor: systemActor("WordPress import (command line)"),
      sitePatterns: patterns,
      progress: (p) => {
        if (json || Date.now() - last < 2000) return;
        last = Date.now();
        console.error(p.message);
      },
    });
    if (json) console.log(JSON.stringify(report, null, 2));
    else {
      printReport(report);
      console.log(`\n${dryRun ? "Dry run" : "Import"} finished in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    }
  } catch (error) {
    if (error instanceof WxrError || error instanceof ImportError) throw new UsageError(error.message);
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new UsageError(`No such file: ${file}`);
    throw error;
  }
});
