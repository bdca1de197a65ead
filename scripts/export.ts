/**
 * `npm run export -- [file]`: writes all content (team, articles, headers,
 * hours), every stored picture (from DATA_DIR/uploads, or the bucket of
 * S3_BUCKET) and the audit trail to one archive (gzip'd JSON lines).
 * Staff accounts are not included. Default file: backup-<date-time>.jsonl.gz.
 * On the embedded database, stop the server first (it holds the database).
 */
import fs from "node:fs";
import path from "node:path";
import { BackupError, exportBackup } from "~/.server/content/backup";
import { runScript, UsageError } from "./cli";

const arg = process.argv[2];
const file = path.resolve(arg ?? `backup-${new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19)}.jsonl.gz`);

if (fs.existsSync(file)) {
  console.error(`${file} already exists; choose another file name.`);
  process.exit(1);
}

await runScript(async () => {
  const started = Date.now();
  try {
    const summary = await exportBackup(file, { progress: (m) => console.log(m) });
    const size = fs.statSync(file).size;
    console.log(
      `Wrote ${file} (${(size / 1024 / 1024).toFixed(1)} MB): ` +
        `${Object.entries(summary.rows)
          .map(([t, n]) => `${n} ${t}`)
          .join(
            ", ",
          )} rows, ${summary.pictures} pictures, ${summary.auditEntries} audit-trail entries, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    if (summary.missingPictures.length) {
      console.warn(
        `Warning: ${summary.missingPictures.length} picture file(s) named by the content were already missing from storage: ${summary.missingPictures.slice(0, 5).join(", ")}${summary.missingPictures.length > 5 ? ", …" : ""}`,
      );
    }
  } catch (error) {
    if (error instanceof BackupError) throw new UsageError(error.message);
    throw error;
  }
});
