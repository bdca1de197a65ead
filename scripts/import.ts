/**
 * `npm run import -- file`: restores an archive written by `npm run export`
 * into an EMPTY database (refused when any content exists) and its pictures
 * into the configured storage (DATA_DIR/uploads, or the bucket of S3_BUCKET). All rows or none; staff accounts are untouched.
 * On the embedded database, stop the server first, and import before its first
 * start (or start it once with SEED_DEMO=false), since a first start seeds demo content.
 */
import path from "node:path";
import { BackupError, importBackup } from "~/.server/content/backup";
import { runScript, UsageError } from "./cli";

const arg = process.argv[2];

if (!arg) {
  console.error("Usage: npm run import -- <archive file written by npm run export>");
  process.exit(1);
}
const file = path.resolve(arg);

await runScript(async () => {
  const started = Date.now();
  try {
    const summary = await importBackup(file, { progress: (m) => console.log(m) });
    console.log(
      `Restored ${Object.entries(summary.rows)
        .map(([t, n]) => `${n} ${t}`)
        .join(
          ", ",
        )} rows, ${summary.pictures} pictures and ${summary.auditEntries} audit-trail entries from ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } catch (error) {
    if (error instanceof BackupError) throw new UsageError(error.message);
    throw error;
  }
});
