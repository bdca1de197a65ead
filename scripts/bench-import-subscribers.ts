/**
 * `npm run bench:import-subscribers`: a 50,000-row subscriber CSV imported
 * through the reference nginx (issue 42 item 5). Two production instances on
 * PostgreSQL behind deploy/nginx/harrow-kline.conf (`proxy_read_timeout
 * 60s`, `client_max_body_size 13m`; tests/support/cluster.ts). An owner's
 * session posts the file as the screen's form does; the upload must answer
 * (a redirect with its message) well within nginx's timeout, then the
 * `subscriber-import` job reads the file while the script polls the progress
 * resource the screen polls, until it is done. Prints the upload's time, the
 * job's time and rows a second, the counts, and checks that nothing was
 * mailed. Exits 1 when the upload took 5 s or more, the job did not finish in
 * BENCH_IMPORT_TIMEOUT_S (600), or anything was mailed.
 */
import { execSync } from "node:child_process";
import { startCluster, signInCookie } from "../tests/support/cluster";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../tests/e2e/support";

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 50_000);
const TIMEOUT_S = Number(process.env.BENCH_IMPORT_TIMEOUT_S ?? 600);
const UPLOAD_TARGET_MS = 5_000;
const say = (message: string) => console.log(`[bench:import-subscribers] ${message}`);

/** Rows as an export from a practice-management system might give them: most with evidence, one in ten without. */
function csvFile(rows: number): string {
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const lines = ["email,consent,consent date,source,implied basis"];
  for (let i = 0; i < rows; i++) {
    const email = `contact${i}@client${i % 97}.example`;
    if (i % 10 === 9)
      lines.push(`${email},implied,${day(30)},Seminar sign-in sheet,`); // no basis: refused
    else if (i % 3 === 0) lines.push(`${email},express,${day(400)},"Signed engagement letter, clause 12",`);
    else if (i % 3 === 1) lines.push(`${email},implied,${day(200)},Retainer for file ${i},business relationship`);
    else lines.push(`${email},implied,${day(40)},Enquiry form on the site,enquiry`);
  }
  return lines.join("\n");
}

async function main() {
  if (process.env.BENCH_BUILD !== "0") {
    say("building…");
    execSync("npx react-router build", { stdio: "ignore" });
  }
  say("starting two instances on PostgreSQL behind the reference nginx…");
  const cluster = await startCluster({ instances: 2, log: say });
  const failures: string[] = [];
  try {
    const cookie = await signInCookie(cluster.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const text = csvFile(ROWS);
    say(`${ROWS.toLocaleString("en-CA")} rows, ${(text.length / 1024 / 1024).toFixed(1)} MB`);
    const body = new FormData();
    body.append("file", new File([text], "contacts.csv", { type: "text/csv" }));
    body.append("topics", "insurance");
    const started = performance.now();
    const upload = await fetch(`${cluster.url}/dashboard/subscribers/import`, {
      method: "POST",
      body,
      redirect: "manual",
      headers: { cookie, origin: cluster.url },
    });
    const uploadMs = performance.now() - started;
    say(`upload answered ${upload.status} in ${uploadMs.toFixed(0)} ms (${upload.headers.get("location")})`);
    if (upload.status !== 302) failures.push(`the upload answered ${upload.status}`);
    if (uploadMs >= UPLOAD_TARGET_MS) failures.push(`the upload took ${uploadMs.toFixed(0)} ms (target < ${UPLOAD_TARGET_MS} ms)`);
    const [{ id }] = await cluster.query<{ id: string }>("select id from subscriber_imports order by id desc limit 1");
    type Progress = { import: { status: string; rowsRead: number; rowsTotal: number; accepted: number; refused: number } };
    let last: Progress["import"] | undefined;
    let polls = 0;
    const jobStarted = performance.now();
    while (performance.now() - jobStarted < TIMEOUT_S * 1000) {
      const res = await fetch(`${cluster.url}/dashboard/subscribers/imports/${id}`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`the progress resource answered ${res.status}`);
      last = ((await res.json()) as Progress).import;
      if (polls++ % 10 === 0)
        say(`${last.status}: ${last.rowsRead} of ${last.rowsTotal} read, ${last.accepted} accepted, ${last.refused} refused`);
      if (last.status === "done" || last.status === "failed") break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const totalS = (performance.now() - started) / 1000;
    say(
      `finished: ${last?.status}, ${last?.rowsRead} rows read, ${last?.accepted} accepted, ${last?.refused} refused; ${totalS.toFixed(1)} s after the upload began, ${Math.round(ROWS / totalS)} rows/s`,
    );
    if (last?.status !== "done") failures.push(`the job did not finish in ${TIMEOUT_S} s (${last?.status})`);
    else if (last.rowsRead !== ROWS || last.accepted + last.refused !== ROWS) failures.push("the counts do not add up");
    const [{ n }] = await cluster.query<{ n: string }>("select count(*) as n from mail_outbox");
    const [{ s }] = await cluster.query<{ s: string }>("select count(*) as s from subscribers");
    say(`subscribers now: ${s}; messages made by the import: ${n}`);
    if (Number(n) !== 0) failures.push(`the import made ${n} messages`);
    const errors = cluster.nginx
      .errorLog()
      .split("\n")
      .filter((l) => /upstream timed out|\[error\]/.test(l));
    if (errors.length) failures.push(`nginx logged errors: ${errors.slice(0, 3).join(" | ")}`);
  } finally {
    await cluster.stop();
  }
  if (failures.length) {
    say(`not met: ${failures.join("; ")}`);
    process.exit(1);
  }
  say("met");
}

await main();
