/**
 * The CASL import (issue 42 item 5), on a real database through the
 * dashboard guard: the upload keeps the file and answers; the job refuses
 * each row without evidence of consent, with its row, address and reason;
 * implied consent is kept with its end and a mailing skips it after that
 * end; the import itself sends nothing; "Ask for consent" is confirmed,
 * capped per day and recorded in Activity.
 */
import { and, eq } from "drizzle-orm";
import { readFlash } from "~/.server/admin/flash.server";
import { beforeAll, describe, expect, it } from "vitest";
import { createArticle } from "~/.server/db/articles";
import { systemActor } from "~/.server/db/audit";
import { db } from "~/.server/db/client";
import { scheduleMailing, mailingRecipientCount } from "~/.server/db/mailings";
import { auditLog, mailOutbox, subscriberImports, subscribers } from "~/.server/db/schema";
import { consentRequestState, IMPORT_STOPPED, latestImport, runNextImport, sweepImports } from "~/.server/db/subscriber-imports";
import {
  confirmSubscription,
  eraseSubscriber,
  findSubscriberByEmail,
  requestSubscription,
  withdrawConsent,
} from "~/.server/db/subscribers";
import { setEnvForTests } from "~/.server/env";
import { runMailings } from "~/.server/subscriptions/mailing-sender";
import { sendConsentRequests } from "~/.server/subscriptions/consent-requests";
import * as list from "~/routes/admin/subscribers";
import * as importer from "~/routes/admin/subscribers-import";
import * as exporter from "~/routes/admin/subscribers-export";
import * as refusedRows from "~/routes/admin/subscribers-import-refused";
import * as consentRequests from "~/routes/admin/subscribers-consent-requests";
import * as subscriberScreen from "~/routes/admin/subscriber";
import { IMPORT_MSG } from "~/routes/admin/subscribers-import";
import { signedIn } from "../support/staff-session";
import { setUpTestDatabase } from "../support/database";
import { deliverDueMail, setUpMailQueue, setUpTestSmtp } from "../support/mail-queue";
import { guarded, testContext } from "../support/route-call";

const outbox = setUpMailQueue(setUpTestDatabase());
const sink = setUpTestSmtp();
const ORIGIN = "http://localhost:3000";
let admin = "";
let editor = "";

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

async function upload(cookie: string, file: File | null, topics = ["insurance"]) {
  const body = new FormData();
  if (file) body.append("file", file);
  for (const t of topics) body.append("topics", t);
  const request = new Request(`${ORIGIN}/dashboard/subscribers/import`, { method: "POST", body, headers: { cookie, origin: ORIGIN } });
  try {
    return (await guarded(importer.action, { request, params: {}, context: testContext() })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** The flash message a redirect carries, as the next page shows it. */
async function flashOf(response: Response): Promise<string> {
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0];
  const { status } = await readFlash(new Request(ORIGIN, { headers: { cookie } }));
  return status?.text ?? `(no message; status ${response.status})`;
}

const csv = (text: string, name = "contacts.csv") => new File([text], name, { type: "text/csv" });

beforeAll(async () => {
  setEnvForTests({ SMTP_URL: sink.smtp.url, SUBSCRIBER_MAIL_RATE: "1000", CONSENT_REQUESTS_PER_DAY: "2" });
  admin = await signedIn("admin@example.com", "admin");
  editor = await signedIn("editor@example.com", "editor");
  const { token } = await requestSubscription({
    email: "web@example.com",
    topics: ["news"],
    formUrl: `${ORIGIN}/subscribe`,
    source: "web",
  });
  await confirmSubscription(token!);
  const left = await requestSubscription({ email: "left@example.com", topics: ["news"], formUrl: `${ORIGIN}/subscribe`, source: "web" });
  await confirmSubscription(left.token!);
  await withdrawConsent(left.subscriberId!, "preferences");
  const erased = await requestSubscription({
    email: "erased@example.com",
    topics: ["news"],
    formUrl: `${ORIGIN}/subscribe`,
    source: "web",
  });
  await eraseSubscriber(erased.subscriberId!, systemActor("test"));
});

describe("the CASL import", () => {
  it("refuses a file that is not a CSV, has no columns named, or no rows, in words; an editor is refused", async () => {
    expect(
      await flashOf(await upload(admin, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1])], "photo.png", { type: "image/png" }))),
    ).toContain(IMPORT_MSG.notCsv);
    expect(await flashOf(await upload(admin, csv("email,name\na@example.com,A\n")))).toContain(
      "Missing: “consent”, “consent date”, “source”",
    );
    expect(await flashOf(await upload(admin, csv("email,consent,consent date,source\n")))).toContain(IMPORT_MSG.empty);
    expect(await flashOf(await upload(admin, null))).toContain(IMPORT_MSG.noFile);
    const big = await upload(admin, csv(`email,consent,consent date,source\n${"x".repeat(13 * 1024 * 1024)}`));
    expect(big.status).toBe(302);
    expect(await flashOf(big)).toContain(IMPORT_MSG.tooLarge);
    expect(await latestImport()).toBeUndefined();
    const asEditor = await upload(editor, csv("email,consent,consent date,source\na@example.com,express,2026-01-01,x\n"));
    expect(asEditor.status).toBe(403);
  });

  it("answers at once, then the job accepts rows with evidence and refuses the rest with row, address and reason; nothing is sent", async () => {
    const before = sink.smtp.messages.length;
    const [outboxBefore] = await db().select({ n: mailOutbox.id }).from(mailOutbox).orderBy(mailOutbox.id).limit(1);
    const file = [
      "Email,Consent,Consent date,Source,Implied basis",
      `express@client.example,express,${ago(400)},"Signed the engagement letter, clause 12",`,
      `client@client.example,implied,${ago(100)},Retainer for file 2026-114,business relationship`,
      `asked@client.example,implied,${ago(30)},Enquiry form on the site,enquiry`,
      `old@client.example,implied,${ago(200)},Telephone enquiry,enquiry`,
      `nokind@client.example,,${ago(10)},Met at a seminar,`,
      `nodate@client.example,express,,Card at a seminar,`,
      `nosource@client.example,express,${ago(10)},,`,
      `nobasis@client.example,implied,${ago(10)},A client,`,
      `not-an-address,express,${ago(10)},x,`,
      `Express@Client.example,express,${ago(10)},Again,`,
      `left@example.com,express,${ago(10)},Card,`,
      `web@example.com,express,${ago(10)},Card,`,
      `erased@example.com,express,${ago(10)},Card,`,
    ].join("\n");
    const started = Date.now();
    const response = await upload(admin, csv(file));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(response.status).toBe(302);
    expect(await flashOf(response)).toContain("13 rows are being imported");
    expect(await findSubscriberByEmail("express@client.example")).toBeUndefined(); // the job has not run yet
    expect((await latestImport())!.status).toBe("queued");

    expect(await runNextImport()).not.toBeNull();
    const done = (await latestImport())!;
    expect(done).toMatchObject({ status: "done", rows_total: 13, rows_read: 13, accepted: 3, refused: 10 });
    expect(done.refusals).toEqual([
      { row: 5, email: "old@client.example", reason: expect.stringMatching(/^Implied consent \(enquiry\) ended on \d{4}-\d{2}-\d{2}\.$/) },
      { row: 6, email: "nokind@client.example", reason: "No kind of consent: write express or implied." },
      { row: 7, email: "nodate@client.example", reason: "No consent date." },
      { row: 8, email: "nosource@client.example", reason: "No source or wording of the consent." },
      { row: 9, email: "nobasis@client.example", reason: "Implied consent needs its basis: business relationship or enquiry." },
      { row: 10, email: "not-an-address", reason: "Not a valid e-mail address." },
      { row: 11, email: "Express@Client.example", reason: "The same address is on row 2: only that row is used." },
      {
        row: 12,
        email: "left@example.com",
        reason: expect.stringMatching(/^Unsubscribed on .*: an import cannot subscribe them again\.$/),
      },
      { row: 13, email: "web@example.com", reason: "Already subscribed with express consent: left as it is." },
      // An erased address is not kept, not even in the list of refused rows: only its row number.
      { row: 14, email: "", reason: "Erased on request: never imported again." },
    ]);
    expect(await findSubscriberByEmail("erased@example.com")).toBeUndefined();
    expect(await findSubscriberByEmail("express@client.example")).toMatchObject({
      status: "confirmed",
      source: "import",
      consent_kind: "express",
      consent_expires_at: null,
    });
    const client = (await findSubscriberByEmail("client@client.example"))!;
    expect(client).toMatchObject({ status: "confirmed", consent_kind: "implied" });
    // Two years from the business relationship's date.
    const relationship = new Date(`${ago(100)}T00:00:00Z`);
    relationship.setUTCFullYear(relationship.getUTCFullYear() + 2);
    expect(client.consent_expires_at).toEqual(relationship);
    const asked = (await findSubscriberByEmail("asked@client.example"))!;
    const enquiry = new Date(`${ago(30)}T00:00:00Z`);
    enquiry.setUTCMonth(enquiry.getUTCMonth() + 6);
    expect(asked.consent_expires_at).toEqual(enquiry);
    expect((await findSubscriberByEmail("left@example.com"))!.status).toBe("unsubscribed");

    // The import mailed nobody: no message, nothing kept in the outbox.
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.smtp.messages.length).toBe(before);
    expect(outboxBefore).toBeUndefined();
    expect(await db().select().from(mailOutbox)).toHaveLength(0);

    // The screens: the progress with the refused rows, the subscriber's consent and its end.
    const page = await guarded(list.loader, {
      request: new Request(`${ORIGIN}/dashboard/subscribers`, { headers: { cookie: admin } }),
      params: {},
      context: testContext(),
    });
    expect(page.lastImport).toMatchObject({ status: "done", rowsRead: 13, accepted: 3, refused: 10 });
    const screen = await guarded(subscriberScreen.loader, {
      request: new Request(`${ORIGIN}/dashboard/subscribers/${client.id}`, { headers: { cookie: admin } }),
      params: { id: String(client.id) },
      context: testContext(),
    });
    expect(screen.subscriber).toMatchObject({ consentKind: "implied", consentEnded: false });
    expect(screen.subscriber.consentEnds).toMatch(/\d{4}$/);
    expect(screen.history[0]).toMatchObject({ event: "Imported", wording: "Retainer for file 2026-114" });
    expect(screen.history[0].evidence).toContain("Implied consent (business relationship)");

    // The consent export (a CRTC question) carries the evidence.
    const exported = await (
      (await guarded(exporter.loader, {
        request: new Request(`${ORIGIN}/dashboard/subscribers/export`, { headers: { cookie: admin } }),
        params: {},
        context: testContext(),
      })) as Response
    ).text();
    expect(exported).toContain(
      `"client@client.example","confirmed","imported","insurance","","Retainer for file 2026-114","Import #${done.id} (contacts.csv) by admin@example.com","import",`,
    );
    expect(exported).toContain(`"implied","${ago(100)}","business relationship","${relationship.toISOString()}"`);
    const entries = await db().select().from(auditLog).where(eq(auditLog.action, "import"));
    expect(entries.map((e) => e.item_label)).toEqual([
      `Import #${done.id} of 13 rows started`,
      `Import #${done.id} of 13 rows finished: 3 accepted, 10 refused; nothing sent`,
    ]);

    // The refused rows as a file, to mend and import again: every row with its address and reason; an editor is refused.
    const refusedFile = (cookie: string) =>
      guarded(refusedRows.loader, {
        request: new Request(`${ORIGIN}/dashboard/subscribers/imports/${done.id}/refused`, { headers: { cookie } }),
        params: { id: String(done.id) },
        context: testContext(),
      }).catch((thrown: unknown) => thrown as Response) as Promise<Response>;
    const refused = await refusedFile(admin);
    expect(refused.headers.get("content-disposition")).toBe(`attachment; filename="import-${done.id}-refused-rows.csv"`);
    const lines = (await refused.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('"row","email","reason"');
    expect(lines[2]).toBe('"6","nokind@client.example","No kind of consent: write express or implied."');
    expect(lines[10]).toBe('"14","","Erased on request: never imported again."');
    expect((await refusedFile(editor)).status).toBe(403);
    const exports = await db().select().from(auditLog).where(eq(auditLog.action, "export"));
    expect(exports.map((e) => e.item_label)).toContain(`Refused rows of import #${done.id} (10)`);
  });

  it("never mails an implied-consent subscriber after its consent ended", async () => {
    const client = (await findSubscriberByEmail("client@client.example"))!;
    const asked = (await findSubscriberByEmail("asked@client.example"))!;
    // The enquiry's six months are over (its end moved into the past, as time would).
    await db()
      .update(subscribers)
      .set({ consent_expires_at: new Date(Date.now() - 60_000) })
      .where(eq(subscribers.id, asked.id));
    expect(await mailingRecipientCount(["insurance"])).toBe(2); // express@ and client@, not asked@
    const actor = systemActor("test");
    const a = await createArticle(
      {
        title: "Duty to defend",
        img: "",
        category: "insurance",
        news: false,
        priority: false,
        copy: "<p>Held.</p>",
        state: { status: "published" },
      },
      actor,
    );
    const before = sink.smtp.messages.length;
    await scheduleMailing(a.id, ["insurance"], actor, a.title);
    // client@'s consent ends after the queue is made, before its message goes: the sender skips it too.
    await runMailings({ budgetMs: 1 }).catch(() => undefined);
    await db()
      .update(subscribers)
      .set({ consent_expires_at: new Date(Date.now() - 1000) })
      .where(and(eq(subscribers.id, client.id)));
    await runMailings({ budgetMs: 10_000 });
    const sent = sink.smtp.messages.slice(before).map((m) => JSON.stringify(m.to));
    expect(sent.some((t) => t.includes("asked@client.example"))).toBe(false);
    expect(sent.some((t) => t.includes("express@client.example"))).toBe(true);
    // Put client@ back (the next test asks it for consent).
    await db()
      .update(subscribers)
      .set({ consent_expires_at: new Date(Date.now() + 100 * DAY) })
      .where(eq(subscribers.id, client.id));
  });

  it("asks for consent only when confirmed, at most CONSENT_REQUESTS_PER_DAY a day, recorded in Activity", async () => {
    // Three more addresses on implied consent, so that the cap (2 a day here) is passed.
    const rows = ["email,consent,consent date,source,implied basis"];
    for (const n of [1, 2, 3]) rows.push(`more${n}@client.example,implied,${ago(20)},Seminar sign-in sheet,enquiry`);
    await upload(admin, csv(rows.join("\n")));
    await runNextImport();
    const post = (fields: Record<string, string>) =>
      guarded(consentRequests.action, {
        request: new Request(`${ORIGIN}/dashboard/subscribers/consent-requests`, {
          method: "POST",
          body: new URLSearchParams(fields),
          headers: { cookie: admin, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        }),
        params: {},
        context: testContext(),
      }) as Promise<Response>;
    expect(await consentRequestState(2)).toMatchObject({ askable: 4, waiting: 0, sentToday: 0 }); // client@ and more1–3; asked@ ended
    // Not confirmed: nothing queued.
    expect(await flashOf(await post({}))).toContain("Tick the box to confirm");
    expect((await consentRequestState(2)).askable).toBe(4);
    const before = sink.smtp.messages.length;
    const answer = await post({ confirm: "yes" });
    expect(await flashOf(answer)).toContain(
      "4 requests for consent are queued: 2 go out today, the other 2 on the following days (at most 2 a day).",
    );
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "mail"), eq(auditLog.item_type, "subscriber")));
    expect(entry).toMatchObject({
      item_type: "subscriber",
      item_label: "Requests for consent to 4 imported addresses",
      actor_label: "admin@example.com",
    });

    expect(await sendConsentRequests()).toEqual({ consentRequestsSent: 2 });
    expect(await sendConsentRequests()).toEqual({ consentRequestsSent: 0 }); // the day's cap
    // Each kept with its job (mail-send), which sends it.
    await deliverDueMail(outbox.queue);
    await sink.smtp.waitFor(() => sink.smtp.messages.length >= before + 2);
    const sent = sink.smtp.messages.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0].subject).toContain("keep sending you insights");
    expect(await consentRequestState(2)).toMatchObject({ askable: 0, waiting: 2, sentToday: 2 });
    // The next day the rest go.
    const tomorrow = new Date(Date.now() + DAY + 60_000);
    expect(await sendConsentRequests(tomorrow)).toEqual({ consentRequestsSent: 2 });
    expect(await flashOf(await post({ confirm: "yes" }))).toContain("No imported address is waiting");
  });

  it("deletes finished imports (their refused rows hold addresses) 30 days after they finished", async () => {
    expect(await sweepImports(new Date(Date.now() + 29 * DAY))).toBe(0);
    expect(await sweepImports(new Date(Date.now() + 31 * DAY))).toBe(2);
    expect(await latestImport()).toBeUndefined();
  });

  it("an import that fails stops with a message in words and does not hold back the next one", async () => {
    const file = (email: string) => csv(["Email,Consent,Consent date,Source", `${email},express,${ago(5)},Signed form`].join("\n"));
    expect((await upload(admin, file("first@client.example"))).status).toBe(302);
    expect((await upload(admin, file("second@client.example"))).status).toBe(302);
    // The first run fails at its first step (as a database error would).
    let calls = 0;
    const failingOnce = () => {
      if (calls++ === 0) throw new Error("connection terminated unexpectedly");
      return new Date();
    };
    const stopped = await runNextImport(failingOnce);
    const [first] = await db().select().from(subscriberImports).where(eq(subscriberImports.id, stopped!));
    expect(first).toMatchObject({ status: "failed", error: IMPORT_STOPPED });
    expect(await runNextImport()).toBe(stopped! + 1);
    expect((await latestImport())!).toMatchObject({ status: "done", accepted: 1 });
    expect(await runNextImport()).toBeNull();
  });
});
