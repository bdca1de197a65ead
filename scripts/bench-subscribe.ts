/**
 * `npm run bench:subscribe`: the sign-up's answer takes the same time
 * whatever the address's state (issue 42, item 2). Target: with an SMTP
 * server that takes BENCH_SUBSCRIBE_SMTP_MS (150 ms) to accept each message,
 * the median answer to `POST /subscribe` for a new address and for a
 * confirmed one differ by less than 10 ms.
 *
 * 1. Builds the app (BENCH_BUILD=0 reuses the build) and starts one
 *    production instance on a fresh embedded database, its SMTP_URL a local
 *    `smtp-server` that waits before accepting each message
 *    (tests/support/smtp.ts), TRUST_PROXY on so each request can come from an
 *    address of its own (the per-address limit stays out of the figures).
 * 2. Subscribes and confirms BENCH_SUBSCRIBE_PAIRS (25) addresses through the
 *    e-mailed links.
 * 3. Posts the form BENCH_SUBSCRIBE_PAIRS times for a new address and as many
 *    for a confirmed one, alternating, one at a time, and reports both
 *    medians and their difference. Prints "met"/"not met"; exits 1 when missed.
 */
import { execSync } from "node:child_process";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { startServer } from "../tests/e2e/support";
import { startTestSmtp } from "../tests/support/smtp";
import { median } from "./wrk";

const PAIRS = Number(process.env.BENCH_SUBSCRIBE_PAIRS ?? 25);
const SMTP_MS = Number(process.env.BENCH_SUBSCRIBE_SMTP_MS ?? 150);
const TARGET_MS = 10;
const say = (message: string) => console.log(`[bench:subscribe] ${message}`);

async function main() {
  if (process.env.BENCH_BUILD !== "0") {
    say("building…");
    execSync("npx react-router build", { stdio: "ignore" });
  }
  const smtp = await startTestSmtp();
  const server = await startServer({ quiet: true, env: { SMTP_URL: smtp.url, TRUST_PROXY: "true", LOG_LEVEL: "error" } });
  let failed = false;
  try {
    const page = await (await fetch(`${server.url}/subscribe`)).text();
    const token = new RegExp(`name="${TOKEN_FIELD}" value="([^"]+)"`).exec(page)?.[1];
    if (!token) throw new Error("no form token on /subscribe");
    await new Promise((r) => setTimeout(r, 3_100)); // the form's minimum time
    let ip = 1;
    const post = async (email: string) => {
      const body = new URLSearchParams({ email, topics: "news", consent: "yes", [TOKEN_FIELD]: token, [HONEYPOT_FIELD]: "" });
      const started = performance.now();
      const res = await fetch(`${server.url}/subscribe`, {
        method: "POST",
        body,
        headers: { origin: server.url, "x-forwarded-for": `198.18.${ip >> 8}.${ip++ & 255}` },
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200 || !text.includes("If this address can be subscribed")) throw new Error(`unexpected answer ${res.status}`);
      return ms;
    };

    say(`confirming ${PAIRS} subscribers…`);
    const known: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const email = `known-${i}@bench.example`;
      await post(email);
      const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email), 30_000);
      const link = /https?:\/\/\S+\/subscribe\/confirm\/[A-Za-z0-9_-]+/.exec(mail.text ?? "")?.[0];
      if (!link) throw new Error(`no confirmation link for ${email}`);
      const confirmed = await fetch(link.replace(/^https?:\/\/[^/]+/, server.url), { method: "POST", headers: { origin: server.url } });
      if (confirmed.status !== 200) throw new Error(`confirming ${email} answered ${confirmed.status}`);
      known.push(email);
    }

    smtp.delayMs = SMTP_MS;
    say(`measuring ${PAIRS} pairs with an SMTP server that takes ${SMTP_MS} ms a message…`);
    const fresh: number[] = [];
    const confirmed: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      fresh.push(await post(`new-${i}@bench.example`));
      confirmed.push(await post(known[i]));
    }
    const [a, b] = [median(fresh), median(confirmed)];
    const diff = Math.abs(a - b);
    failed = diff >= TARGET_MS;
    say(`median answer: new address ${a.toFixed(1)} ms, confirmed address ${b.toFixed(1)} ms`);
    say(`difference ${diff.toFixed(1)} ms (target < ${TARGET_MS} ms): ${failed ? "not met" : "met"}`);
  } finally {
    await server.stop();
    await smtp.close();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(`[bench:subscribe] ${(error as Error).message}`);
  process.exit(1);
});
