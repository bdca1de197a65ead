/**
 * The enquiry form's action (POST /contact) and the Enquiries screen's
 * actions, on a real database: validation with the field's own message and
 * everything typed kept; the honeypot, the timing token, the per-address
 * limit and the mostly-links refusal (a neutral answer, nothing stored); the
 * enquiry stored and the notification delivered to a real SMTP server, or
 * kept in the outbox without one; nothing personal in the log; staff state,
 * note and delete (audited without the sender's details; refused to an
 * editor); the retention job.
 */
import { testContext, guarded } from "../support/route-call";
import { desc, eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { countAttempts, createEnquiry, ENQUIRY_LIMIT_PER_HOUR, getEnquiry } from "~/.server/db/enquiries";
import { db } from "~/.server/db/client";
import { auditLog, enquiries, enquiryAttempts, mailOutbox } from "~/.server/db/schema";
import { issueFormToken, MIN_FILL_SECONDS, TOKEN_LIFETIME_MS } from "~/.server/public-forms/spam-defence";
import { setEnvForTests } from "~/.server/env";
import { siteJobs } from "~/.server/jobs/jobs";
import { createJobQueue } from "~/.server/jobs/queue";
import { ENQUIRY_MSG, HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import * as contact from "~/routes/public/contact";
import * as enquiryScreen from "~/routes/admin/enquiry";
import * as enquiriesList from "~/routes/admin/enquiries";
import { signedIn } from "../support/staff-session";
import { setUpTestDatabase } from "../support/database";
import { deliverDueMail, setUpMailQueue, setUpTestSmtp } from "../support/mail-queue";

const state = setUpTestDatabase();
const outbox = setUpMailQueue(state);
const sink = setUpTestSmtp();
const ORIGIN = "http://localhost:3000";

beforeAll(() => setEnvForTests({ ENQUIRY_TO: "intake@harrowkline.example", SMTP_URL: "" }));

/** A token as a page rendered long enough ago carries (the minimum time has passed). */
const readyToken = () => issueFormToken(Date.now() - (MIN_FILL_SECONDS + 1) * 1000);

const VALID = {
  name: "Dana Claims",
  email: "dana@insurer.example",
  phone: "416 555 0199",
  practice_area: "insurance",
  message: "We need defence counsel for a bodily injury claim against our insured in Ottawa.",
  consent: "yes",
};

type Result = {
  status: number;
  data: { outcome: string; status: { text: string }; errors?: Record<string, string>; values?: Record<string, unknown>; token: string };
  headers: Headers;
};

async function send(fields: Record<string, string | undefined>, ip = "198.51.100.7"): Promise<Result> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.append(k, v);
  const request = new Request(`${ORIGIN}/contact`, {
    method: "POST",
    body,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
  });
  const result = (await guarded(contact.action, {
    request,
    params: {},
    context: testContext(ip),
  })) as unknown as {
    data: Result["data"];
    init: { status?: number; headers?: HeadersInit } | null;
  };
  return { status: result.init?.status ?? 200, data: result.data, headers: new Headers(result.init?.headers) };
}

const form = (overrides: Record<string, string | undefined> = {}) => ({
  ...VALID,
  [HONEYPOT_FIELD]: "",
  [TOKEN_FIELD]: readyToken(),
  ...overrides,
});
const stored = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(enquiries)
  )[0].n;
let ipCounter = 0;
/** A fresh address per test, so the per-address limit only bites where it is tested. */
const freshIp = () => `203.0.113.${++ipCounter}`;

describe("the enquiry form (POST /contact)", () => {
  it("stores a valid enquiry and answers with the confirmation, never cached", async () => {
    const before = await stored();
    const r = await send(form(), freshIp());
    expect(r.status).toBe(200);
    expect(r.data.outcome).toBe("sent");
    expect(r.data.status.text).toBe(ENQUIRY_MSG.sent);
    expect(r.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await stored()).toBe(before + 1);
    const [row] = await db().select().from(enquiries).orderBy(desc(enquiries.id)).limit(1);
    expect(row).toMatchObject({
      name: VALID.name,
      email: VALID.email,
      phone: VALID.phone,
      practice_area: "insurance",
      message: VALID.message,
      state: "new",
      staff_note: "",
      handled_by: null,
    });
    expect(row.consented_at).toBeInstanceOf(Date);
  });

  it("names each wrong field with its own message and keeps everything typed (400, nothing stored)", async () => {
    const before = await stored();
    const r = await send(
      form({ name: "  ", email: "dana@", phone: "call me", practice_area: "tax", message: "Help", consent: undefined }),
      freshIp(),
    );
    expect(r.status).toBe(400);
    expect(r.data.outcome).toBe("invalid");
    expect(r.data.errors).toEqual({
      name: "Name is required.",
      email: "Enter a valid e-mail address, such as name@example.com.",
      phone: ENQUIRY_MSG.phone,
      practice_area: ENQUIRY_MSG.area,
      message: ENQUIRY_MSG.messageShort,
      consent: ENQUIRY_MSG.consent,
    });
    expect(r.data.values).toEqual({ name: "  ", email: "dana@", phone: "call me", practice_area: "tax", message: "Help", consent: false });
    expect(r.data.token).toMatch(/^1\./);
    expect(await stored()).toBe(before);
    const empty = await send({ [HONEYPOT_FIELD]: "", [TOKEN_FIELD]: readyToken() }, freshIp());
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.data.errors ?? {}).sort()).toEqual(["consent", "email", "message", "name", "practice_area"]);
    expect(empty.data.errors?.message).toBe("Message is required.");
  });

  it("refuses a filled honeypot with the neutral answer, stores nothing, keeps what was typed", async () => {
    const before = await stored();
    const r = await send(form({ [HONEYPOT_FIELD]: "http://spam.example" }), freshIp());
    expect(r.data.outcome).toBe("refused");
    expect(r.data.status.text).toBe(ENQUIRY_MSG.refused);
    expect(r.data.values?.message).toBe(VALID.message);
    expect(await stored()).toBe(before);
    // A post without the field at all (a robot that builds its own request) is refused the same way.
    expect((await send(form({ [HONEYPOT_FIELD]: undefined }), freshIp())).data.outcome).toBe("refused");
  });

  it("asks to send again, storing nothing, when sent sooner than a person could, or without a valid token", async () => {
    const before = await stored();
    const now = Date.now();
    const cases: Record<string, string | undefined> = {
      "at once, from a page just rendered": issueFormToken(now),
      "two seconds after the page": issueFormToken(now - 2000),
      "no token": undefined,
      "a made-up token": `1.${(now - 60_000).toString(36)}.${"A".repeat(27)}`,
      "a token a day old": issueFormToken(now - TOKEN_LIFETIME_MS - 60_000),
      garbage: "\u0000<script>",
    };
    for (const [name, token] of Object.entries(cases)) {
      const r = await send(form({ [TOKEN_FIELD]: token }), freshIp());
      expect(r.status, name).toBe(400);
      expect(r.data.outcome, name).toBe("again");
      expect(r.data.status.text, name).toBe(ENQUIRY_MSG.again);
      expect(r.data.values?.message, name).toBe(VALID.message);
    }
    expect(await stored()).toBe(before);
    // The token handed back then works once the minimum time has passed.
    const again = await send(form({ [TOKEN_FIELD]: issueFormToken(now - MIN_FILL_SECONDS * 1000 - 10) }), freshIp());
    expect(again.data.outcome).toBe("sent");
  });

  it("a page token allows sending the minimum time (at most 3 s) after the render, never later", async () => {
    const now = Date.now();
    const almost = issueFormToken(now - MIN_FILL_SECONDS * 1000 + 500);
    expect((await send(form({ [TOKEN_FIELD]: almost }), freshIp())).data.outcome).toBe("again");
    const enough = issueFormToken(now - MIN_FILL_SECONDS * 1000 - 10);
    expect((await send(form({ [TOKEN_FIELD]: enough }), freshIp())).data.outcome).toBe("sent");
    const threeSeconds = issueFormToken(now - 3000 - 10);
    expect((await send(form({ [TOKEN_FIELD]: threeSeconds }), freshIp())).data.outcome).toBe("sent");
  });

  it(`limits one address to ${ENQUIRY_LIMIT_PER_HOUR} an hour (neutral answer, not stored); other addresses go on`, async () => {
    const ip = freshIp();
    const before = await stored();
    for (let i = 0; i < ENQUIRY_LIMIT_PER_HOUR; i++) expect((await send(form(), ip)).data.outcome, `sending ${i + 1}`).toBe("sent");
    const over = await send(form(), ip);
    expect(over.data.outcome).toBe("refused");
    expect(over.data.status.text).toBe(ENQUIRY_MSG.refused);
    expect(await stored()).toBe(before + ENQUIRY_LIMIT_PER_HOUR);
    expect((await send(form(), freshIp())).data.outcome).toBe("sent");
    // The limit is kept in the database by a hash, never the address itself.
    const kept = await db().select().from(enquiryAttempts);
    expect(kept.some((a) => a.address.includes(ip) || a.address.includes("203.0.113"))).toBe(false);
    // An hour later the address may send again.
    await db()
      .update(enquiryAttempts)
      .set({ at: new Date(Date.now() - 61 * 60 * 1000) });
    expect((await send(form(), ip)).data.outcome).toBe("sent");
  });

  it("refuses a message that is mostly links; a message with a link among words is fine", async () => {
    const before = await stored();
    const spam = "Best offer http://cheap.example/a http://cheap.example/b www.pills.example/buy now";
    const r = await send(form({ message: spam }), freshIp());
    expect(r.data.outcome).toBe("refused");
    expect(r.data.status.text).toBe(ENQUIRY_MSG.refused);
    expect(await stored()).toBe(before);
    const ok = await send(
      form({ message: "Our claim file is described at https://insurer.example/claims/123 and we need advice on coverage for it." }),
      freshIp(),
    );
    expect(ok.data.outcome).toBe("sent");
  });

  it("refuses an oversized or unreadable body with a message and stores nothing", async () => {
    const before = await stored();
    const big = await send(form({ message: "x".repeat(70 * 1024) }), freshIp());
    expect(big.status).toBe(413);
    expect(big.data.status.text).toMatch(/too large/);
    const request = new Request(`${ORIGIN}/contact`, {
      method: "POST",
      body: "{}",
      headers: { origin: ORIGIN, "content-type": "application/json" },
    });
    const json = (await guarded(contact.action, {
      request,
      params: {},
      context: testContext(freshIp()),
    })) as unknown as { init: { status: number } };
    expect(json.init.status).toBe(400);
    expect(await stored()).toBe(before);
  });

  it("writes nothing personal to the log", async () => {
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "info";
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => (out.push(String(chunk)), true));
    const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => void out.push(String(line)));
    try {
      const ip = freshIp();
      await send(
        form({
          name: "Secret Person",
          email: "secret.person@example.com",
          message: "A private matter about our secret claim number 4711.",
        }),
        ip,
      );
      await send(form({ message: "http://a.example http://b.example http://c.example" }), ip);
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      write.mockRestore();
      error.mockRestore();
      process.env.LOG_LEVEL = previous;
    }
    const text = out.join("\n");
    expect(text).toContain("enquiry received");
    for (const secret of ["Secret Person", "secret.person", "4711", "private matter", "a.example", "203.0.113."])
      expect(text).not.toContain(secret);
  });
});

describe("the notification to ENQUIRY_TO", () => {
  afterEach(() => setEnvForTests({ SMTP_URL: "", ENQUIRY_TO: "intake@harrowkline.example" }));

  it("arrives at the SMTP server with the area and a dashboard link, without the sender's details", async () => {
    setEnvForTests({ SMTP_URL: sink.smtp.url, ENQUIRY_TO: "intake@harrowkline.example, partner@harrowkline.example" });
    const r = await send(
      form({ practice_area: "cyber", name: "Casey Breach", message: "Ransomware hit our servers this morning; we need counsel now." }),
      freshIp(),
    );
    expect(r.data.outcome).toBe("sent");
    // The answer did not wait on the e-mail server: the message's job (mail-send) sends it.
    await deliverDueMail(outbox.queue);
    const [row] = await db().select().from(enquiries).orderBy(desc(enquiries.id)).limit(1);
    const mail = await sink.smtp.waitFor((m) => (m.subject ?? "").includes(`#${row.id}`));
    expect(mail.subject).toBe(`New enquiry #${row.id}: Cyber Security & Incident Response`);
    const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value ?? []).map((a) => a.address);
    expect(to).toEqual(["intake@harrowkline.example", "partner@harrowkline.example"]);
    expect(mail.text).toContain(`http://localhost:3000/dashboard/enquiries/${row.id}`);
    expect(mail.html).toContain(`href="http://localhost:3000/dashboard/enquiries/${row.id}"`);
    for (const part of [mail.text ?? "", String(mail.html)]) {
      expect(part).not.toContain("Casey");
      expect(part).not.toContain("Ransomware");
      expect(part).not.toContain("dana@insurer.example");
    }
    const [kept] = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, "enquiry")).orderBy(desc(mailOutbox.id)).limit(1);
    expect(kept).toMatchObject({ status: "sent", kind: "enquiry" });
  });

  it("stays in the outbox without SMTP_URL, and the enquiry is stored all the same", async () => {
    setEnvForTests({ SMTP_URL: "" });
    const received = sink.smtp.messages.length;
    const r = await send(form(), freshIp());
    expect(r.data.outcome).toBe("sent");
    const [row] = await db().select().from(enquiries).orderBy(desc(enquiries.id)).limit(1);
    const [kept] = await db().select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    expect(kept).toMatchObject({ kind: "enquiry", status: "outbox", to_address: "intake@harrowkline.example" });
    expect(kept.subject).toContain(`#${row.id}`);
    expect(sink.smtp.messages.length).toBe(received);
  });

  it("is not sent when ENQUIRY_TO is not set (the enquiry is still kept)", async () => {
    setEnvForTests({ ENQUIRY_TO: "" });
    const before = (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(mailOutbox)
    )[0].n;
    expect((await send(form(), freshIp())).data.outcome).toBe("sent");
    expect(
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(mailOutbox)
      )[0].n,
    ).toBe(before);
  });
});

// ---------- the Enquiries screen ----------

async function staffPost(cookie: string, id: number | string, fields: Record<string, string>) {
  const request = new Request(`${ORIGIN}/dashboard/enquiries/${id}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
  });
  try {
    const result = await guarded(enquiryScreen.action, {
      request,
      params: { id: String(id) },
      context: testContext("192.0.2.44"),
    });
    if (result instanceof Response) return { status: result.status, location: result.headers.get("Location"), data: null };
    const d = result as unknown as { data: unknown; init?: { status?: number } };
    return {
      status: d.init?.status ?? 200,
      location: null,
      data: d.data as { status?: { text: string }; errors?: Record<string, string> },
    };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: null, data: null };
    throw thrown;
  }
}

describe("the Enquiries screen", () => {
  let owner = "";
  let admin = "";
  let editor = "";
  beforeAll(async () => {
    owner = await signedIn("owner@example.com", "owner");
    admin = await signedIn("admin@example.com", "admin");
    editor = await signedIn("editor@example.com", "editor");
  });

  const auditFor = async (id: number) =>
    db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.item_id, String(id)))
      .orderBy(auditLog.id);

  it("lists enquiries newest first for an owner or admin, filtered by state; refuses an editor (403)", async () => {
    const first = await createEnquiry({ ...VALID, name: "Older Sender", practice_area: "construction" });
    const second = await createEnquiry({ ...VALID, name: "Newer Sender", practice_area: "insurance" });
    const load = (cookie: string, query = "") =>
      guarded(enquiriesList.loader, {
        request: new Request(`${ORIGIN}/dashboard/enquiries${query}`, { headers: { cookie } }),
        params: {},
        context: testContext(),
      });
    const list = await load(admin);
    const names = list.rows.map((r) => r.name);
    expect(names.indexOf("Newer Sender")).toBeLessThan(names.indexOf("Older Sender"));
    expect(list.rows.find((r) => r.id === first.id)).toMatchObject({ area: "Construction Disputes", state: "new" });
    await db().update(enquiries).set({ state: "closed" }).where(eq(enquiries.id, second.id));
    const closed = await load(owner, "?state=closed");
    expect(closed.rows.map((r) => r.id)).toEqual([second.id]);
    let refused: unknown;
    try {
      await load(editor);
    } catch (error) {
      refused = error;
    }
    expect((refused as Response).status).toBe(403);
  });

  it("changes the state and the note, records who handled it, audits without personal details", async () => {
    const e = await createEnquiry({ ...VALID, name: "Robin Private", message: "Details of a private dispute with our contractor." });
    const r = await staffPost(admin, e.id, {
      intent: "save",
      state: "in_progress",
      staff_note: "Called Robin back; conflict check clear.",
    });
    expect(r.status).toBe(302);
    expect(r.location).toBe(`/dashboard/enquiries/${e.id}`);
    const after = await getEnquiry(e.id);
    expect(after).toMatchObject({
      state: "in_progress",
      staff_note: "Called Robin back; conflict check clear.",
      handled_by: "admin@example.com",
    });
    expect(after!.handled_at).toBeInstanceOf(Date);
    const [entry] = await auditFor(e.id);
    expect(entry).toMatchObject({
      action: "update",
      item_type: "enquiry",
      item_label: `Enquiry #${e.id}`,
      actor_label: "admin@example.com",
      ip: "192.0.2.44",
    });
    expect(entry.changes).toEqual({ state: { before: "new", after: "in_progress" }, staff_note: { hidden: true } });
    expect(JSON.stringify(entry)).not.toMatch(/Robin|private dispute|conflict check/);
  });

  it("refuses a bad state with the field's message, keeping the note typed; nothing written", async () => {
    const e = await createEnquiry(VALID);
    const r = await staffPost(owner, e.id, { intent: "save", state: "archived", staff_note: "typed note" });
    expect(r.status).toBe(400);
    expect(r.data?.errors?.state).toBe("Choose New, In progress or Closed.");
    expect((r.data as { values?: { staff_note: string } }).values?.staff_note).toBe("typed note");
    expect(await getEnquiry(e.id)).toMatchObject({ state: "new", staff_note: "", handled_by: null });
    expect(await auditFor(e.id)).toEqual([]);
  });

  it("deletes one at once (audited without personal details); a second delete finds nothing (404)", async () => {
    const e = await createEnquiry({ ...VALID, name: "Please Forget Me" });
    const r = await staffPost(owner, e.id, { intent: "delete", id: String(e.id) });
    expect(r.status).toBe(302);
    expect(r.location).toBe("/dashboard/enquiries");
    expect(await getEnquiry(e.id)).toBeUndefined();
    const [entry] = await auditFor(e.id);
    expect(entry).toMatchObject({
      action: "delete",
      item_type: "enquiry",
      item_label: `Enquiry #${e.id}`,
      actor_label: "owner@example.com",
    });
    expect(JSON.stringify(entry)).not.toContain("Forget");
    const again = await staffPost(owner, e.id, { intent: "delete", id: String(e.id) });
    expect(again.status).toBe(404);
    expect(again.data?.status?.text).toBe("Error deleting the enquiry. Please try again later.");
  });

  it("refuses an editor with 403 and writes nothing (state, note or delete)", async () => {
    const e = await createEnquiry(VALID);
    const auditBefore = (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
    )[0].n;
    const posts: Record<string, string>[] = [
      { intent: "save", state: "closed", staff_note: "x" },
      { intent: "delete", id: String(e.id) },
    ];
    for (const fields of posts) {
      const r = await staffPost(editor, e.id, fields);
      expect(r.status).toBe(403);
    }
    expect(await getEnquiry(e.id)).toMatchObject({ state: "new", staff_note: "", handled_by: null });
    expect(
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(auditLog)
      )[0].n,
    ).toBe(auditBefore);
  });
});

describe("retention", () => {
  it(`the retention job deletes enquiries older than ENQUIRY_RETENTION_DAYS (recorded under "retention") and old form attempts`, async () => {
    setEnvForTests({ ENQUIRY_RETENTION_DAYS: "30" });
    const day = 24 * 60 * 60 * 1000;
    const old = await createEnquiry({ ...VALID, name: "Old Sender" }, new Date(Date.now() - 31 * day));
    const recent = await createEnquiry({ ...VALID, name: "Recent Sender" }, new Date(Date.now() - 29 * day));
    await db()
      .insert(enquiryAttempts)
      .values([
        { address: "old-attempt", at: new Date(Date.now() - 2 * day) },
        { address: "new-attempt", at: new Date() },
      ]);
    const attemptsBefore = await countAttempts();
    const queue = createJobQueue(
      state.database,
      siteJobs(state.database).filter((j) => j.name === "retention"),
    );
    await queue.start({ work: false, catchUp: false });
    expect(await queue.runNow("retention")).toBe("ran");
    await queue.stop();
    expect(await getEnquiry(old.id)).toBeUndefined();
    expect(await getEnquiry(recent.id)).toBeDefined();
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.item_id, String(old.id)));
    expect(entry).toMatchObject({
      action: "purge",
      item_type: "enquiry",
      actor_label: "retention",
      actor_id: null,
      item_label: `Enquiry #${old.id}`,
    });
    expect(JSON.stringify(entry)).not.toContain("Old Sender");
    const attempts = await db().select().from(enquiryAttempts);
    expect(attempts.some((a) => a.address === "old-attempt")).toBe(false);
    expect(attempts.some((a) => a.address === "new-attempt")).toBe(true);
    expect(await countAttempts()).toBe(attemptsBefore - 1);
  });
});
