/**
 * The Subscribers screen (issue 31), through the dashboard guard on a real
 * database: editors see counts only; owners and admins search and filter,
 * read a person's consent history, export the consent records (CSV, audited)
 * (the import: subscribers-import.test.ts); a withdrawal on request; erasure by
 * an owner only, leaving a hash.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { auditLog, subscriberSuppressions } from "~/.server/db/schema";
import { addressHash, confirmSubscription, findSubscriberByEmail, requestSubscription } from "~/.server/db/subscribers";
import { setEnvForTests } from "~/.server/env";
import { CONSENT_WORDING } from "~/lib/forms/subscribe";
import * as subscriberScreen from "~/routes/admin/subscriber";
import * as list from "~/routes/admin/subscribers";
import * as exporter from "~/routes/admin/subscribers-export";
import { signedIn } from "../support/staff-session";
import { setUpTestSmtp } from "../support/mail-queue";
import { setUpTestDatabase } from "../support/database";
import { guarded, testContext } from "../support/route-call";

setUpTestDatabase();
const sink = setUpTestSmtp();
const ORIGIN = "http://localhost:3000";
let owner = "";
let admin = "";
let editor = "";

async function confirmed(email: string, topics: ("insurance" | "construction" | "cyber" | "news")[]) {
  const { token } = await requestSubscription({ email, topics, formUrl: `${ORIGIN}/subscribe`, source: "web" });
  await confirmSubscription(token!);
  return (await findSubscriberByEmail(email))!;
}

async function outcome<T>(work: Promise<T>): Promise<{ status: number; value?: T; location?: string | null }> {
  try {
    const value = await work;
    if (value instanceof Response) return { status: value.status, location: value.headers.get("Location"), value };
    return { status: (value as { init?: { status?: number } }).init?.status ?? 200, value };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status };
    if (thrown && typeof thrown === "object" && "init" in thrown) return { status: (thrown as { init: { status: number } }).init.status };
    throw thrown;
  }
}

beforeAll(async () => {
  setEnvForTests({ SMTP_URL: sink.smtp.url });
  owner = await signedIn("owner@example.com", "owner");
  admin = await signedIn("admin@example.com", "admin");
  editor = await signedIn("editor@example.com", "editor");
  await confirmed("alpha@insurer.example", ["insurance"]);
  await confirmed("beta@builder.example", ["construction", "news"]);
  await requestSubscription({ email: "gamma@pending.example", topics: ["cyber"], formUrl: `${ORIGIN}/subscribe`, source: "web" });
});

const load = (cookie: string, query = "") =>
  guarded(list.loader, {
    request: new Request(`${ORIGIN}/dashboard/subscribers${query}`, { headers: { cookie } }),
    params: {},
    context: testContext(),
  });

describe("the Subscribers screen", () => {
  it("shows an editor the counts only, and owners and admins the list, searched and filtered", async () => {
    const asEditor = await load(editor);
    expect(asEditor.list).toBeNull();
    expect(asEditor.counts.byStatus).toMatchObject({ confirmed: 2, pending: 1 });
    expect(asEditor.counts.byTopic).toMatchObject({ insurance: 1, construction: 1, news: 1 });
    expect(JSON.stringify(asEditor)).not.toContain("@");

    const all = await load(admin);
    expect(all.list!.rows.map((r) => r.email).sort()).toEqual(["alpha@insurer.example", "beta@builder.example", "gamma@pending.example"]);
    expect((await load(owner, "?q=builder")).list!.rows.map((r) => r.email)).toEqual(["beta@builder.example"]);
    expect((await load(owner, "?topic=insurance")).list!.rows.map((r) => r.email)).toEqual(["alpha@insurer.example"]);
    expect((await load(owner, "?status=pending")).list!.rows.map((r) => r.email)).toEqual(["gamma@pending.example"]);
  });

  it("shows a person's consent history to an admin, and refuses it to an editor", async () => {
    const alpha = (await findSubscriberByEmail("alpha@insurer.example"))!;
    const args = (cookie: string) => ({
      request: new Request(`${ORIGIN}/dashboard/subscribers/${alpha.id}`, { headers: { cookie } }),
      params: { id: String(alpha.id) },
      context: testContext(),
    });
    const page = await guarded(subscriberScreen.loader, args(admin));
    expect(page.history.map((h) => h.event)).toEqual(["Asked to subscribe (web form)", "Confirmed"]);
    expect(page.history[0].wording).toBe(CONSENT_WORDING);
    expect(page.canErase).toBe(false);
    expect((await outcome(guarded(subscriberScreen.loader, args(editor)))).status).toBe(403);
  });

  it("exports every consent record as CSV (audited); editors are refused", async () => {
    const request = (cookie: string) => ({
      request: new Request(`${ORIGIN}/dashboard/subscribers/export`, { headers: { cookie } }),
      params: {},
      context: testContext(),
    });
    const response = (await guarded(exporter.loader, request(owner))) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const csv = await response.text();
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    // Every cell quoted (lib/csv.ts).
    expect(lines[0]).toBe(
      `"email","status_now","event","topics","consent_wording_version","consent_wording","form_url","source","at_utc","consent_kind","consent_date","implied_basis","consent_ends_utc"`,
    );
    expect(lines.filter((l) => l.startsWith(`"alpha@insurer.example","confirmed",`))).toHaveLength(2);
    expect(csv).toContain(`"beta@builder.example","confirmed","requested","construction news"`);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.item_type, "subscriber"));
    expect(entry).toMatchObject({ action: "export", actor_label: "owner@example.com" });
    expect((await outcome(guarded(exporter.loader, request(editor)))).status).toBe(403);
  });

  it("erasure: refused to an admin (403), an owner's leaves only the hash and an Activity entry", async () => {
    const beta = (await findSubscriberByEmail("beta@builder.example"))!;
    const post = (cookie: string, fields: Record<string, string>) =>
      outcome(
        guarded(subscriberScreen.action, {
          request: new Request(`${ORIGIN}/dashboard/subscribers/${beta.id}`, {
            method: "POST",
            body: new URLSearchParams(fields),
            headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
          }),
          params: { id: String(beta.id) },
          context: testContext(),
        }),
      );
    expect((await post(admin, { intent: "erase", confirm: "yes" })).status).toBe(403);
    expect(await findSubscriberByEmail("beta@builder.example")).toBeDefined();
    expect((await post(owner, { intent: "erase" })).status).toBe(400);
    expect((await post(owner, { intent: "erase", confirm: "yes" })).status).toBe(302);
    expect(await findSubscriberByEmail("beta@builder.example")).toBeUndefined();
    const [row] = await db()
      .select()
      .from(subscriberSuppressions)
      .where(eq(subscriberSuppressions.address_hash, addressHash("beta@builder.example")));
    expect(row).toBeDefined();
    const entries = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.item_id, String(beta.id)));
    expect(entries.find((e) => e.action === "delete")).toMatchObject({ item_type: "subscriber", item_label: `Subscriber #${beta.id}` });
    expect(JSON.stringify(entries)).not.toContain("beta@builder.example");
  });

  it("records a withdrawal asked for by telephone, at once (admin)", async () => {
    const alpha = (await findSubscriberByEmail("alpha@insurer.example"))!;
    const request = new Request(`${ORIGIN}/dashboard/subscribers/${alpha.id}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "withdraw" }),
      headers: { cookie: admin, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(
      (await outcome(guarded(subscriberScreen.action, { request, params: { id: String(alpha.id) }, context: testContext() }))).status,
    ).toBe(302);
    expect((await findSubscriberByEmail("alpha@insurer.example"))!.status).toBe("unsubscribed");
  });
});
