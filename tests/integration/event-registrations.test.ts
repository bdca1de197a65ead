/**
 * An event's registrants on the dashboard (issue 45), through the dashboard
 * guard on a real database (PGlite, or PostgreSQL with `npm run test:pg`):
 * the list searched by name, e-mail or organisation with counts by status;
 * the CSV export (a name starting with "=" made safe; audited); attendance
 * marked, undone and imported from a webinar platform's CSV (matched
 * whatever the capitals; unmatched addresses named; bad files answered in
 * words, never a 500); certificates of attendance e-mailed once each by the
 * `event-certificates` job (the button queues it once per event, the screen
 * shows its progress; run twice or retried, it sends each once), their PDF
 * read back by Poppler's pdftotext; the daily erasure job; and who may
 * open the screen (an editor may not; an admin and an events coordinator may).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFlash } from "~/.server/admin/flash.server";
import { attendanceAddresses, REGISTRATIONS_MSG } from "~/.server/admin/event-registrations.server";
import { systemActor } from "~/.server/db/audit";
import { db } from "~/.server/db/client";
import { listRegistrations, createEvent, registerForEvent, type EventInput } from "~/.server/db/events";
import { registrationCounts } from "~/.server/db/event-registrations";
import { auditLog, eventRegistrations, events, mailOutbox } from "~/.server/db/schema";
import { setEnvForTests } from "~/.server/env";
import { closeMail } from "~/.server/mail/mail";
import { renderCertificatePdf } from "~/.server/events/certificate";
import { createJobQueue, type JobQueue } from "~/.server/jobs/queue";
import { CERTIFICATES_JOB, certificatesJob, runCertificates } from "~/.server/events/certificate-job";
import { setJobQueueForTests } from "~/.server/http/startup";
import { certificateProgressText } from "~/lib/certificate-progress";
import * as certificatesProgress from "~/routes/admin/event-certificates-progress";
import { siteJobs } from "~/.server/jobs/jobs";
import { FIRM } from "~/config/firm";
import * as certificate from "~/routes/admin/event-certificate";
import * as screen from "~/routes/admin/event-registrations";
import * as exporter from "~/routes/admin/event-registrations-export";
import { setUpTestDatabase } from "../support/database";
import { eventInput as publicEvent } from "../support/events";
import { callRoute, guarded } from "../support/route-call";
import { startTestSmtp } from "../support/smtp";
import { cookiesOf, signedIn } from "../support/staff-session";

const state = setUpTestDatabase();
const ORIGIN = "http://localhost:3000";
const ACTOR = systemActor("registrations test");
const DAY = 86_400_000;
const hasPoppler = spawnSync("pdftotext", ["-v"]).status === 0;
if (!hasPoppler && process.env.CI) throw new Error("CI needs Poppler for the certificate test: apt-get install -y poppler-utils");

const cookies = { owner: "", admin: "", editor: "", events: "" };
let past = 0;
let upcoming = 0;

/** A webinar a week ahead with 4 places and accredited CPD hours. */
const eventInput = (title: string, extra: Partial<EventInput> = {}) =>
  publicEvent(title, 7 * DAY, {
    format: "webinar",
    venue_name: "",
    capacity: 4,
    cpd_substantive_minutes: 30,
    cpd_professionalism_minutes: 60,
    accreditation_number: "CPD-2026-0042",
    accreditation_date: "2026-09-01",
    ...extra,
  });

const person = (name: string, email: string, organisation: string, extra: Record<string, string> = {}) => ({
  name,
  email,
  organisation,
  job_title: "Counsel",
  accessibility_needs: "",
  ...extra,
});

/** Moves an event so that it started (and ended) `daysAgo` days ago, 12:00 p.m. Toronto time on 2026-10-22 for the certificate's text. */
async function moveToPast(id: number, starts: Date) {
  await db()
    .update(events)
    .set({ starts_at: starts, ends_at: new Date(starts.getTime() + 90 * 60_000) })
    .where(eq(events.id, id));
}

beforeAll(async () => {
  cookies.owner = await signedIn("owner@example.com", "owner");
  cookies.admin = await signedIn("admin@example.com", "admin");
  cookies.editor = await signedIn("editor@example.com", "editor");
  cookies.events = await signedIn("coordinator@example.com", "events");
  const event = await createEvent(eventInput("Ethics of Defence Reporting"), ACTOR);
  past = event.id;
  for (const p of [
    person("Ada Lovelace", "ada@analytical.example", "Analytical Engines", { accessibility_needs: "Captions, please" }),
    person('=HYPERLINK("http://evil.example")', "formula@example.com", "+Sheets Inc"),
    person("Grace Hopper", "grace@navy.example", "US Navy"),
    person("Alan Turing", "alan@bletchley.example", "Bletchley Park"),
    person("Waiting Walter", "walter@example.com", "Queue Ltd"),
  ])
    await registerForEvent(event.id, p);
  // 2026-10-22 16:00 UTC is 12:00 p.m. in Toronto (EDT).
  await moveToPast(event.id, new Date("2026-10-22T16:00:00Z"));
  upcoming = (await createEvent(eventInput("Upcoming Webinar"), ACTOR)).id;
  await registerForEvent(upcoming, person("Early Bird", "early@example.com", "Nest Co"));
});

const listUrl = (id: number, query = "") => `${ORIGIN}/dashboard/events/${id}/registrations${query}`;
const get = (fn: (args: never) => Promise<unknown>, url: string, cookie: string, params: Record<string, string>) =>
  callRoute(fn, new Request(url, { headers: { cookie } }), params);
const load = (cookie: string, query = "", id = past) => get(screen.loader, listUrl(id, query), cookie, { id: String(id) });
type Screen = Awaited<ReturnType<typeof screen.loader>>;

function post(cookie: string, fields: Record<string, string | string[]>, id = past, query = "", file?: { name: string; bytes: BlobPart }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one);
  if (file) form.append("file", new File([file.bytes], file.name, { type: "text/csv" }));
  return callRoute(screen.action, new Request(listUrl(id, query), { method: "POST", body: form, headers: { cookie, origin: ORIGIN } }), {
    id: String(id),
  });
}

async function flashText(headers: Headers): Promise<string | undefined> {
  const { status } = await readFlash(new Request(ORIGIN, { headers: { cookie: cookiesOf(headers) } }));
  return status?.text;
}

const idOf = async (email: string, id = past) => (await listRegistrations(id)).find((r) => r.email === email)!.id;
const statusOf = async (email: string, id = past) => (await listRegistrations(id)).find((r) => r.email === email)!.status;

describe("who may open the registrations", () => {
  it("an editor is refused the screen and the export (403); an admin, an owner and an events coordinator open them", async () => {
    expect((await load(cookies.editor)).status).toBe(403);
    const exportAs = (cookie: string) =>
      get(exporter.loader, `${ORIGIN}/dashboard/events/${past}/registrations/export`, cookie, { id: String(past) });
    expect((await exportAs(cookies.editor)).status).toBe(403);
    for (const role of ["admin", "owner", "events"] as const) {
      expect((await load(cookies[role])).status, role).toBe(200);
      expect((await exportAs(cookies[role])).status, role).toBe(200);
    }
    expect((await post(cookies.editor, { intent: "attend", id: "1" })).status).toBe(403);
    expect((await load(cookies.admin, "", 999_999)).status).toBe(404);
  });
});

describe("the list", () => {
  it("shows the event, counts by status and every registration with its details", async () => {
    const { data } = await load(cookies.admin);
    const page = data as unknown as Screen;
    expect(page.event).toMatchObject({ title: "Ethics of Defence Reporting", started: true, ended: true, format: "Webinar" });
    expect(page.event.when).toBe("Thursday, October 22, 2026, 12:00 p.m. ET");
    expect(page.counts).toMatchObject({ registered: 4, waiting: 1, cancelled: 0, attended: 0 });
    const ada = page.rows.find((r) => r.name === "Ada Lovelace")!;
    expect(ada).toMatchObject({
      email: "ada@analytical.example",
      organisation: "Analytical Engines",
      jobTitle: "Counsel",
      needs: "Captions, please",
    });
    expect(page.rows.map((r) => r.status)).toEqual(["registered", "registered", "registered", "registered", "waiting"]);
  });

  it("searches by name, e-mail or organisation (any case) and filters by status", async () => {
    const names = async (query: string) => ((await load(cookies.admin, query)).data as unknown as Screen).rows.map((r) => r.name);
    expect(await names("?q=analytical")).toEqual(["Ada Lovelace"]);
    expect(await names("?q=GRACE%40NAVY")).toEqual(["Grace Hopper"]);
    expect(await names("?q=bletchley")).toEqual(["Alan Turing"]);
    expect(await names("?q=nobody-at-all")).toEqual([]);
    expect(await names("?status=waiting")).toEqual(["Waiting Walter"]);
    expect(await names("?q=%25")).toEqual([]);
  });
});

describe("the CSV export", () => {
  it("holds every field, neutralises a name that starts a formula, follows the search, and is recorded in Activity", async () => {
    const response = await get(exporter.loader, `${ORIGIN}/dashboard/events/${past}/registrations/export`, cookies.events, {
      id: String(past),
    });
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const raw = await callExportText(cookies.events, "");
    expect(raw.split("\r\n")[0]).toContain('"name","email","organisation","title","accessibility_needs"');
    expect(raw).toContain(`"'=HYPERLINK(""http://evil.example"")","formula@example.com","'+Sheets Inc"`);
    expect(raw).not.toMatch(/(^|,)"=/m);
    expect(raw).toContain('"Ada Lovelace","ada@analytical.example","Analytical Engines","Counsel","Captions, please"');
    const searched = await callExportText(cookies.events, "?q=grace");
    expect(searched.trim().split("\r\n")).toHaveLength(2);
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "export"), eq(auditLog.item_type, "event")));
    expect(entries.some((e) => e.actor_label === "coordinator@example.com" && e.item_label.startsWith("Registrations of Ethics"))).toBe(
      true,
    );
  });
});

async function callExportText(cookie: string, query: string): Promise<string> {
  const response = (await guarded(exporter.loader, {
    request: new Request(`${ORIGIN}/dashboard/events/${past}/registrations/export${query}`, { headers: { cookie } }),
    params: { id: String(past) },
  })) as Response;
  return response.text();
}

describe("attendance", () => {
  it("marks the ticked registered people as attended, keeps the search, and undoes it", async () => {
    const ada = await idOf("ada@analytical.example");
    const grace = await idOf("grace@navy.example");
    const walter = await idOf("walter@example.com");
    const marked = await post(cookies.admin, { intent: "attend", id: [String(ada), String(grace), String(walter)], back_q: "a" });
    expect(marked.status).toBe(302);
    expect(marked.location).toBe(`/dashboard/events/${past}/registrations?q=a`);
    expect(await flashText(marked.headers)).toBe("2 people marked as attended.");
    expect(await statusOf("ada@analytical.example")).toBe("attended");
    expect(await statusOf("walter@example.com")).toBe("waiting");

    const undone = await post(cookies.admin, { intent: "undo", id: String(grace) });
    expect(await flashText(undone.headers)).toBe("1 person no longer marked as attended (back to registered).");
    expect(await statusOf("grace@navy.example")).toBe("registered");
    expect(await statusOf("ada@analytical.example")).toBe("attended");

    const none = await post(cookies.admin, { intent: "attend" });
    expect(none.status).toBe(400);
    expect(none.data).toMatchObject({ status: { text: REGISTRATIONS_MSG.noneChosen } });
  });

  it("is refused before the event has started", async () => {
    const early = await idOf("early@example.com", upcoming);
    const answer = await post(cookies.admin, { intent: "attend", id: String(early) }, upcoming);
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({ status: { text: REGISTRATIONS_MSG.notStarted } });
    expect(await statusOf("early@example.com", upcoming)).toBe("registered");
  });

  it("imports a webinar platform's report: addresses matched whatever the capitals, unmatched ones named in words", async () => {
    const report = [
      "Attendee Report",
      "Report Generated:,10/22/2026 2:05 PM",
      "",
      "Name (Original Name),User Email,Join Time,Leave Time",
      "Grace Hopper,GRACE@Navy.example,10/22/2026 12:01,10/22/2026 13:30",
      "Ada Lovelace,ada@analytical.example,10/22/2026 12:00,10/22/2026 13:30",
      "Walter,walter@example.com,10/22/2026 12:00,10/22/2026 13:30",
      "Guest,stranger@elsewhere.example,10/22/2026 12:00,10/22/2026 13:30",
      "Phone caller,,10/22/2026 12:00,10/22/2026 12:30",
    ].join("\r\n");
    const answer = await post(cookies.events, { intent: "import" }, past, "", { name: "zoom.csv", bytes: report });
    expect(answer.status).toBe(302);
    expect(await flashText(answer.headers)).toBe(
      "1 person marked as attended. 1 person was already marked. 2 addresses match no registration with a place (not registered, waiting or cancelled): walter@example.com, stranger@elsewhere.example. 1 row has no e-mail address and was skipped.",
    );
    expect(await statusOf("grace@navy.example")).toBe("attended");
    expect(await statusOf("walter@example.com")).toBe("waiting");
    const entries = await db().select().from(auditLog).where(eq(auditLog.action, "import"));
    expect(entries.some((e) => e.item_label === "Ethics of Defence Reporting: 1 person marked as attended")).toBe(true);
  });

  it("answers a bad file in words (400), changing nothing", async () => {
    const before = await registrationCounts(past);
    const cases: [BlobPart | null, string][] = [
      [null, REGISTRATIONS_MSG.noFile],
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), REGISTRATIONS_MSG.unreadable],
      ["Name,Join Time\r\nGrace,12:00\r\n", REGISTRATIONS_MSG.noEmailColumn],
      ["Email\r\nnot an address\r\n", REGISTRATIONS_MSG.noAddresses],
    ];
    for (const [bytes, message] of cases) {
      const answer = await post(cookies.admin, { intent: "import" }, past, "", bytes === null ? undefined : { name: "a.csv", bytes });
      expect(answer.status, message).toBe(400);
      expect(answer.data).toMatchObject({ status: { tone: "error", text: message } });
    }
    expect(await registrationCounts(past)).toEqual(before);
  });

  it("reads a file without headings by the column of addresses", () => {
    expect(attendanceAddresses("Grace,GRACE@navy.example\nAda,ada@analytical.example\n")).toEqual({
      addresses: ["grace@navy.example", "ada@analytical.example"],
      skipped: 0,
    });
  });
});

function pdfText(bytes: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certificate-"));
  const file = path.join(dir, "certificate.pdf");
  fs.writeFileSync(file, bytes);
  try {
    const info = spawnSync("pdfinfo", [file], { encoding: "utf8" });
    expect(info.stdout).toMatch(/Pages:\s+1\n/);
    const r = spawnSync("pdftotext", [file, "-"], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.replace(/\s+/g, " ");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("certificates of attendance", () => {
  let queue: JobQueue;
  beforeAll(async () => {
    // The site's queue with the certificates' job; runs are started by hand (runNow) so the test sees each state.
    queue = createJobQueue(state.database, [certificatesJob]);
    await queue.start({ work: false, catchUp: false });
    setJobQueueForTests(queue);
  });
  afterAll(async () => {
    setJobQueueForTests(undefined);
    await queue.stop();
  });

  const certificateMails = () => db().select().from(mailOutbox).where(eq(mailOutbox.kind, "event-certificate"));
  /** What the screen says about the sending (its loader, and the resource the open screen reads). */
  async function shown(cookie = cookies.admin): Promise<string | null> {
    const screenData = (await load(cookie)).data as Screen;
    const resource = await get(certificatesProgress.loader, listUrl(past, "/certificates"), cookie, { id: String(past) });
    const progress = (resource.data as { progress: Screen["certificates"] }).progress;
    expect(progress).toEqual(screenData.certificates);
    return progress ? certificateProgressText(progress) : null;
  }

  it("pressing Send certificates queues the sending once (a second press adds nothing); the screen shows it waiting, then sent", async () => {
    expect(await shown()).toBeNull();
    const answer = await post(cookies.admin, { intent: "certificates" });
    expect(answer.status).toBe(302);
    expect(await flashText(answer.headers)).toBe(
      "Sending certificates of attendance to 2 people: the progress is shown under Certificates of attendance. No e-mail server is set up, so they are kept in the Outbox.",
    );
    const twice = await post(cookies.admin, { intent: "certificates" });
    expect(await flashText(twice.headers)).toBe(REGISTRATIONS_MSG.certificatesAlready);
    expect(await shown()).toBe("Sending certificates: waiting to start (2 to send).");
    expect(await shown(cookies.events)).toBe("Sending certificates: waiting to start (2 to send).");
    expect((await get(certificatesProgress.loader, listUrl(past, "/certificates"), cookies.editor, { id: String(past) })).status).toBe(403);
    expect(await certificateMails()).toHaveLength(0);

    expect(await queue.runNow(CERTIFICATES_JOB)).toBe("ran");
    // One job for the two presses: nothing is left to run.
    expect(await queue.runNow(CERTIFICATES_JOB)).toBe("skipped");
    expect(await shown()).toBe("Certificates of attendance sent to 2 people.");

    const kept = await certificateMails();
    expect(kept.map((m) => m.to_address).sort()).toEqual(["ada@analytical.example", "grace@navy.example"]);
    expect(kept[0].subject).toBe("Certificate of attendance: Ethics of Defence Reporting");
    expect(kept[0].attachments[0]).toMatchObject({ contentType: "application/pdf", encoding: "base64" });
    const rows = await db().select().from(eventRegistrations).where(eq(eventRegistrations.event_id, past));
    expect(
      rows
        .filter((r) => r.certificate_sent_at)
        .map((r) => r.email)
        .sort(),
    ).toEqual(["ada@analytical.example", "grace@navy.example"]);

    const again = await post(cookies.admin, { intent: "certificates" });
    expect(again.status).toBe(400);
    expect(again.data).toMatchObject({ status: { text: REGISTRATIONS_MSG.noCertificates } });
    expect(await certificateMails()).toHaveLength(2);

    if (!hasPoppler) return;
    const ada = kept.find((m) => m.to_address === "ada@analytical.example")!;
    const text = pdfText(Buffer.from(ada.attachments[0].content, "base64"));
    expect(text).toContain("Certificate of attendance");
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("Ethics of Defence Reporting");
    expect(text).toContain("Thursday, October 22, 2026, 12:00 p.m. to 1:30 p.m. ET (1 hour 30 minutes)");
    expect(text).toContain("Webinar");
    expect(text).toContain("Substantive: 0.5 hours");
    expect(text).toContain("Professionalism: 1 hour");
    expect(text).toContain("accreditation number CPD-2026-0042");
    expect(text).toContain(FIRM.name);
    expect(text).toContain("100 Wellington Street West, Suite 2100, Toronto, ON M5K 1A1");
  });

  it("goes through the SMTP server as a PDF attachment, byte for byte", async () => {
    const smtp = await startTestSmtp();
    try {
      setEnvForTests({ SMTP_URL: smtp.url });
      const alan = await idOf("alan@bletchley.example");
      await post(cookies.admin, { intent: "attend", id: String(alan) });
      const answer = await post(cookies.admin, { intent: "certificates" });
      expect(await flashText(answer.headers)).toBe(
        "Sending certificates of attendance to 1 person: the progress is shown under Certificates of attendance.",
      );
      expect(await queue.runNow(CERTIFICATES_JOB)).toBe("ran");
      expect(await shown()).toBe("Certificates of attendance sent to 1 person.");
      const mail = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes("alan@bletchley.example"));
      expect(mail.subject).toBe("Certificate of attendance: Ethics of Defence Reporting");
      expect(mail.text).toContain("Your certificate of attendance is attached (PDF).");
      const [pdf] = mail.attachments;
      expect(pdf).toMatchObject({ contentType: "application/pdf", filename: `certificate-${past}-alan-turing.pdf` });
      expect(pdf.content.subarray(0, 5).toString()).toBe("%PDF-");
      if (hasPoppler) expect(pdfText(pdf.content)).toContain("Alan Turing");
    } finally {
      setEnvForTests({ SMTP_URL: undefined });
      closeMail();
      await smtp.close();
    }
  });

  it("a failed try is shown in words; the retry, even run twice at once, sends each certificate once", async () => {
    const many = await createEvent(eventInput("Certificates Retried", { capacity: null }), ACTOR);
    const emails = Array.from({ length: 12 }, (_, i) => `retry-${i}@example.com`);
    for (const [i, email] of emails.entries()) await registerForEvent(many.id, person(`Retry Person ${i}`, email, "Retry LLP"));
    await moveToPast(many.id, new Date(Date.now() - 2 * DAY));
    const ids = (await listRegistrations(many.id)).map((r) => String(r.id));
    expect((await post(cookies.admin, { intent: "attend", id: ids }, many.id)).status).toBe(302);
    const shownFor = async () => {
      const d = (await load(cookies.admin, "", many.id)).data as Screen;
      return d.certificates ? certificateProgressText(d.certificates) : null;
    };

    expect((await post(cookies.admin, { intent: "certificates" }, many.id)).status).toBe(302);
    // A try that dies after its first chunk: the queue's job is taken, a chunk sent, then the try fails.
    const [job] = await queue.boss.fetch(CERTIFICATES_JOB);
    expect(job).toBeDefined();
    await db()
      .update(eventRegistrations)
      .set({ certificate_sent_at: new Date() })
      .where(inArray(eventRegistrations.id, ids.slice(0, 5).map(Number)));
    expect(await shownFor()).toBe("Sending certificates: 5 of 12.");
    await queue.boss.fail(CERTIFICATES_JOB, job.id, { message: "The e-mail server did not answer" });
    expect(await shownFor()).toBe(
      "Sending certificates: 5 of 12. A try failed: an error occurred (The e-mail server did not answer). It is tried again automatically in a minute or so; nobody receives theirs twice.",
    );

    // The retry, and the same job run a second time at once (another instance taking it after a lost heartbeat).
    const [first, second] = await Promise.all([runCertificates(job.data), runCertificates(job.data)]);
    expect(first.sent + second.sent).toBe(7);
    const again = await runCertificates(job.data);
    expect(again.sent).toBe(0);
    const kept = (await certificateMails()).filter((m) => m.to_address.startsWith("retry-"));
    expect(kept.map((m) => m.to_address).sort()).toEqual(emails.slice(5).sort());
    expect((await listRegistrations(many.id)).every((r) => r.certificate_sent_at)).toBe(true);
  });

  it("leaves out Professionalism hours whose accreditation is not recorded", async () => {
    if (!hasPoppler) return;
    const [event] = await db().select().from(events).where(eq(events.id, past));
    const pdf = await renderCertificatePdf({ ...event, accreditation_number: "", accreditation_date: null }, { name: "Grace Hopper" });
    const text = pdfText(pdf);
    expect(text).toContain("Substantive: 0.5 hours");
    expect(text).not.toContain("Professionalism");
  });

  it("downloads an attendee's certificate from the screen; nobody else has one", async () => {
    const url = (id: number) => `${ORIGIN}/dashboard/events/${past}/registrations/${id}/certificate.pdf`;
    const ada = await idOf("ada@analytical.example");
    const response = await guarded(certificate.loader, {
      request: new Request(url(ada), { headers: { cookie: cookies.events } }),
      params: { id: String(past), registrationId: String(ada) },
    });
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="certificate-${past}-ada-lovelace.pdf"`);
    if (hasPoppler) expect(pdfText(new Uint8Array(await response.arrayBuffer()))).toContain("Ada Lovelace");
    const walter = await idOf("walter@example.com");
    const refused = await get(certificate.loader, url(walter), cookies.events, { id: String(past), registrationId: String(walter) });
    expect(refused.status).toBe(404);
    const editor = await get(certificate.loader, url(ada), cookies.editor, { id: String(past), registrationId: String(ada) });
    expect(editor.status).toBe(403);
  });
});

describe("erasure", () => {
  it("the daily job erases registrants' personal data EVENT_REGISTRANT_RETENTION_DAYS after the event; counts remain", async () => {
    const old = await createEvent(eventInput("Long Ago Seminar"), ACTOR);
    await registerForEvent(old.id, person("Old Registrant", "old@example.com", "Old Co", { accessibility_needs: "Ramp" }));
    await registerForEvent(old.id, person("Older Registrant", "older@example.com", "Old Co"));
    await moveToPast(old.id, new Date(Date.now() - 731 * DAY));
    const recent = await createEvent(eventInput("Last Month Seminar"), ACTOR);
    await registerForEvent(recent.id, person("Recent Registrant", "recent@example.com", "New Co"));
    await moveToPast(recent.id, new Date(Date.now() - 40 * DAY));

    const run = async () => {
      const queue = createJobQueue(
        state.database,
        siteJobs(state.database).filter((j) => j.name === "event-registrant-erasure"),
      );
      await queue.start({ work: false, catchUp: false });
      expect(await queue.runNow("event-registrant-erasure")).toBe("ran");
      await queue.stop();
    };
    await run();
    const oldRows = await listRegistrations(old.id);
    expect(oldRows).toHaveLength(2);
    for (const r of oldRows) {
      expect(r).toMatchObject({ name: "", email: "", organisation: "", job_title: "", accessibility_needs: "", status: "registered" });
      expect(r.erased_at).toBeInstanceOf(Date);
    }
    expect(await registrationCounts(old.id)).toMatchObject({ registered: 2, erased: 2 });
    expect((await listRegistrations(recent.id))[0]).toMatchObject({ name: "Recent Registrant", erased_at: null });
    const page = (await load(cookies.admin, "", old.id)).data as unknown as Screen;
    expect(page.rows).toEqual([]);
    expect(page.counts.registered).toBe(2);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "purge"), eq(auditLog.item_id, String(old.id))));
    expect(entry).toMatchObject({ item_type: "event", actor_label: "retention" });
    expect(JSON.stringify(entry)).not.toContain("old@example.com");

    // Configurable: 30 days erases last month's event too.
    setEnvForTests({ EVENT_REGISTRANT_RETENTION_DAYS: "30" });
    await run();
    expect((await listRegistrations(recent.id))[0]).toMatchObject({ name: "", email: "" });
    setEnvForTests({ EVENT_REGISTRANT_RETENTION_DAYS: undefined });
  });
});
