/**
 * The subscriber CSV import and requests for consent (issue 42 item 5, CASL).
 *
 * - The upload keeps the file in `subscriber_imports` and answers; the
 *   `subscriber-import` job (jobs.ts) reads it IMPORT_CHUNK rows at a time,
 *   one transaction a chunk that also writes the progress, so a killed run
 *   resumes where the last chunk ended. The file is dropped when done.
 * - A row is accepted only with evidence of consent (lib/forms/subscriber-import.ts);
 *   its address becomes a subscriber with that consent (express, or implied
 *   until its end), mailable like a confirmed one — never after implied
 *   consent ends. The import itself sends nothing.
 * - Refused: rows without evidence, repeats in the file, erased,
 *   unsubscribed or bounced addresses, and addresses already subscribed on
 *   consent as strong or lasting as long.
 * - Requests for express consent go only to imported addresses with implied
 *   consent that has not ended, once each, CONSENT_REQUESTS_PER_DAY a day
 *   (Toronto days); the rest wait for the next day.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, getTableColumns, gt, gte, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { parseCsv } from "~/lib/csv";
import { startOfZonedDay, toFirmLocalInput } from "~/lib/firm-time";
import { checkImportRow, importHeader, IMPORT_REFUSALS_KEPT, type RowConsent } from "~/lib/forms/subscriber-import";
import { CONSENT_VERSION, CONSENT_WORDING } from "~/lib/forms/subscribe";
import { recordAudit, type Actor } from "./audit";
import { log } from "../log";
import { db, type Db } from "./client";
import { subscriberConsents, subscriberImports, subscribers, subscriberSuppressions, subscriberTokens } from "./schema";
import { addressHash, CONFIRMATION_LIFETIME_MS } from "./subscribers";

export type SubscriberImport = typeof subscriberImports.$inferSelect;
export type ImportRefusal = { row: number; email: string; reason: string };

/** Rows applied in one transaction (and one progress update). */
export const IMPORT_CHUNK = 1000;

/** Keeps an uploaded file for the job; returns its id. */
export async function createImport(
  input: { fileName: string; csv: string; topics: readonly string[]; rowsTotal: number },
  actor: Actor,
): Promise<number> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(subscriberImports)
      .values({
        file_name: input.fileName.slice(0, 200),
        csv: input.csv,
        topics: [...input.topics],
        rows_total: input.rowsTotal,
        created_by: actor.label,
      })
      .returning({ id: subscriberImports.id });
    await recordAudit(tx, actor, {
      action: "import",
      itemType: "subscriber",
      itemLabel: `Import #${row.id} of ${input.rowsTotal} rows started`,
      changes: { file: { after: input.fileName.slice(0, 200) }, rows: { after: input.rowsTotal } },
    });
    return row.id;
  });
}

/** An import without its file (the screen, the progress resource). */
export async function getImport(id: number): Promise<Omit<SubscriberImport, "csv"> | undefined> {
  const { csv: _csv, ...columns } = getTableColumns(subscriberImports);
  const [row] = await db().select(columns).from(subscriberImports).where(eq(subscriberImports.id, id));
  return row;
}

/** The most recent import, if any (the Subscribers screen shows it). */
export async function latestImport(): Promise<Omit<SubscriberImport, "csv"> | undefined> {
  const { csv: _csv, ...columns } = getTableColumns(subscriberImports);
  const [row] = await db().select(columns).from(subscriberImports).orderBy(desc(subscriberImports.id)).limit(1);
  return row;
}

type Existing = {
  id: number;
  email: string;
  status: string;
  consent_kind: string;
  consent_expires_at: Date | null;
  withdrawn_at: Date | null;
};

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Why an address already known is left as it is, or null when the row's consent is to be recorded. */
function reasonToKeep(known: Existing, row: RowConsent): string | null {
  if (known.status === "unsubscribed")
    return `Unsubscribed${known.withdrawn_at ? ` on ${day(known.withdrawn_at)}` : ""}: an import cannot subscribe them again.`;
  if (known.status === "bounced") return "The address bounced: it is not mailed.";
  if (known.status !== "confirmed") return null;
  if (known.consent_kind !== "implied") return "Already subscribed with express consent: left as it is.";
  if (row.kind === "express") return null;
  if (known.consent_expires_at && row.expiresAt && row.expiresAt.getTime() > known.consent_expires_at.getTime()) return null;
  return `Already subscribed with implied consent until ${known.consent_expires_at ? day(known.consent_expires_at) : "later"}: left as it is.`;
}

/**
 * Runs the oldest import waiting (or one a killed run left `running`; the
 * job lets one run be active at a time on all instances). Returns the
 * import's id, or null when none waits.
 */
export async function runNextImport(now = () => new Date()): Promise<number | null> {
  const [next] = await db()
    .select({ id: subscriberImports.id })
    .from(subscriberImports)
    .where(inArray(subscriberImports.status, ["queued", "running"]))
    .orderBy(subscriberImports.id)
    .limit(1);
  if (!next) return null;
  try {
    await runImport(next.id, now);
  } catch (error) {
    // An import that fails (a database error mid-chunk, a file the parser chokes on) would be picked again at every
    // run and hold back every later import: it stops here, with what was done kept and the way on said in words.
    log("error", "subscriber import stopped", { id: next.id, error: (error as Error).message });
    await db()
      .update(subscriberImports)
      .set({ status: "failed", error: IMPORT_STOPPED, csv: "", finished_at: now() })
      .where(eq(subscriberImports.id, next.id));
  }
  return next.id;
}

/** What the screen says of an import that stopped on an error (its rows read so far stay imported). */
export const IMPORT_STOPPED =
  "an error interrupted it before the end of the file. The rows read so far are imported; upload the file again to import the rest (rows already imported are listed as already subscribed).";

export async function runImport(id: number, now = () => new Date()): Promise<void> {
  const [job] = await db().select().from(subscriberImports).where(eq(subscriberImports.id, id));
  if (!job || (job.status !== "queued" && job.status !== "running")) return;
  await db()
    .update(subscriberImports)
    .set({ status: "running", started_at: job.started_at ?? now() })
    .where(eq(subscriberImports.id, id));
  const rows = parseCsv(job.csv);
  const found = importHeader(rows[0] ?? []);
  if ("missing" in found) {
    await db()
      .update(subscriberImports)
      .set({ status: "failed", error: found.missing, csv: "", finished_at: now() })
      .where(eq(subscriberImports.id, id));
    return;
  }
  const { header } = found;
  const label = `Import #${id}${job.file_name ? ` (${job.file_name})` : ""} by ${job.created_by}`;
  // Addresses of the rows already read (a resumed run): a repeat after them is still refused.
  const seen = new Map<string, number>();
  const body = rows.slice(1);
  for (let i = 0; i < job.rows_read; i++) {
    const checked = checkImportRow(body[i] ?? [], header, now());
    if (!("reason" in checked) && !seen.has(checked.email)) seen.set(checked.email, i + 2);
  }
  for (let start = job.rows_read; start < body.length; start += IMPORT_CHUNK) {
    const at = now();
    const chunk = body.slice(start, start + IMPORT_CHUNK);
    const refusals: ImportRefusal[] = [];
    const candidates: { row: number; consent: RowConsent }[] = [];
    chunk.forEach((cells, k) => {
      const rowNumber = start + k + 2; // the header is row 1, as a spreadsheet numbers them
      const email = (cells[header.email ?? 0] ?? "").trim().slice(0, 254);
      const checked = checkImportRow(cells, header, at);
      if ("reason" in checked) return refusals.push({ row: rowNumber, email, reason: checked.reason });
      const earlier = seen.get(checked.email);
      if (earlier) return refusals.push({ row: rowNumber, email, reason: `The same address is on row ${earlier}: only that row is used.` });
      seen.set(checked.email, rowNumber);
      candidates.push({ row: rowNumber, consent: checked });
    });
    await db().transaction(async (tx) => {
      const emails = candidates.map((c) => c.consent.email);
      const suppressed = new Set(
        emails.length
          ? (
              await tx
                .select({ h: subscriberSuppressions.address_hash })
                .from(subscriberSuppressions)
                .where(inArray(subscriberSuppressions.address_hash, emails.map(addressHash)))
            ).map((r) => r.h)
          : [],
      );
      const known = new Map(
        emails.length
          ? (
              await tx
                .select({
                  id: subscribers.id,
                  email: subscribers.email,
                  status: subscribers.status,
                  consent_kind: subscribers.consent_kind,
                  consent_expires_at: subscribers.consent_expires_at,
                  withdrawn_at: subscribers.withdrawn_at,
                })
                .from(subscribers)
                .where(inArray(subscribers.email, emails))
                .for("update")
            ).map((r) => [r.email, r])
          : [],
      );
      const fresh: RowConsent[] = [];
      const rowOf = new Map(candidates.map((c) => [c.consent.email, c.row]));
      const updates: { id: number; consent: RowConsent; pending: boolean }[] = [];
      for (const { row, consent } of candidates) {
        if (suppressed.has(addressHash(consent.email))) {
          // The address itself is not kept (only its hash stays after an erasure): the row number says which.
          refusals.push({ row, email: "", reason: "Erased on request: never imported again." });
          continue;
        }
        const existing = known.get(consent.email);
        if (!existing) {
          fresh.push(consent);
          continue;
        }
        const keep = reasonToKeep(existing, consent);
        if (keep) refusals.push({ row, email: consent.email, reason: keep });
        else updates.push({ id: existing.id, consent, pending: existing.status !== "confirmed" });
      }
      const consentRecord = (subscriberId: number, c: RowConsent) => ({
        subscriber_id: subscriberId,
        event: "imported",
        topics: [...job.topics],
        wording: c.source,
        form_url: label,
        source: "import",
        consent_kind: c.kind,
        consent_date: c.date,
        implied_basis: c.basis,
        expires_at: c.expiresAt,
        at,
      });
      if (fresh.length) {
        const inserted = await tx
          .insert(subscribers)
          .values(
            fresh.map((c) => ({
              email: c.email,
              status: "confirmed",
              topics: [...job.topics],
              source: "import",
              consent_kind: c.kind,
              consent_expires_at: c.expiresAt,
              created_at: at,
              updated_at: at,
              confirmed_at: at,
            })),
          )
          // Subscribed through the website since the rows were looked up: that row stays as it is.
          .onConflictDoNothing()
          .returning({ id: subscribers.id, email: subscribers.email });
        const ids = new Map(inserted.map((r) => [r.email, r.id]));
        const added = fresh.filter((c) => ids.has(c.email));
        for (const c of fresh)
          if (!ids.has(c.email))
            refusals.push({
              row: rowOf.get(c.email) ?? 0,
              email: c.email,
              reason: "Signed up through the website during the import: left as it is.",
            });
        if (added.length) await tx.insert(subscriberConsents).values(added.map((c) => consentRecord(ids.get(c.email)!, c)));
        fresh.splice(0, fresh.length, ...added);
      }
      for (const u of updates) {
        await tx
          .update(subscribers)
          .set({
            status: "confirmed",
            consent_kind: u.consent.kind,
            consent_expires_at: u.consent.expiresAt,
            ...(u.pending ? { topics: [...job.topics], confirmed_at: at } : {}),
            updated_at: at,
          })
          .where(eq(subscribers.id, u.id));
        await tx.insert(subscriberConsents).values(consentRecord(u.id, u.consent));
      }
      refusals.sort((a, b) => a.row - b.row);
      const accepted = fresh.length + updates.length;
      await tx
        .update(subscriberImports)
        .set({
          rows_read: start + chunk.length,
          accepted: sql`${subscriberImports.accepted} + ${accepted}`,
          refused: sql`${subscriberImports.refused} + ${refusals.length}`,
          // The first IMPORT_REFUSALS_KEPT refusals are kept with their reasons; the count goes on.
          refusals: sql`case when jsonb_array_length(${subscriberImports.refusals}) >= ${IMPORT_REFUSALS_KEPT} then ${subscriberImports.refusals}
            else ${subscriberImports.refusals} || ${JSON.stringify(refusals.slice(0, IMPORT_REFUSALS_KEPT))}::jsonb end`,
        })
        .where(eq(subscriberImports.id, id));
    });
  }
  await db().transaction(async (tx) => {
    const [done] = await tx
      .update(subscriberImports)
      .set({ status: "done", csv: "", finished_at: now() })
      .where(eq(subscriberImports.id, id))
      .returning();
    await recordAudit(
      tx,
      { userId: null, label: job.created_by, ip: "" },
      {
        action: "import",
        itemType: "subscriber",
        itemLabel: `Import #${id} of ${done.rows_read} rows finished: ${done.accepted} accepted, ${done.refused} refused; nothing sent`,
        changes: { accepted: { after: done.accepted }, refused: { after: done.refused } },
      },
    );
  });
}

// ---- requests for express consent ----

/** Imported addresses that may be asked for express consent now: implied consent not ended, never asked, not waiting. */
function askable(now: Date) {
  return and(
    eq(subscribers.status, "confirmed"),
    eq(subscribers.consent_kind, "implied"),
    gt(subscribers.consent_expires_at, now),
    isNull(subscribers.consent_requested_at),
  );
}

/** The start of the firm's (Toronto) day containing `now`: the daily cap counts from it. */
export function startOfFirmDay(now: Date): Date {
  return startOfZonedDay(toFirmLocalInput(now).slice(0, 10));
}

export type ConsentRequestState = {
  /** Could be asked now (not asked, not waiting). */
  askable: number;
  /** Asked for, waiting for the day's allowance. */
  waiting: number;
  /** Sent since the firm's day began. */
  sentToday: number;
  perDay: number;
};

export async function consentRequestState(perDay: number, now = new Date()): Promise<ConsentRequestState> {
  const [a] = await db()
    .select({ n: count() })
    .from(subscribers)
    .where(and(askable(now), isNull(subscribers.consent_request_queued_at)));
  const [w] = await db()
    .select({ n: count() })
    .from(subscribers)
    .where(and(askable(now), isNotNull(subscribers.consent_request_queued_at)));
  const [s] = await db()
    .select({ n: count() })
    .from(subscribers)
    .where(gte(subscribers.consent_requested_at, startOfFirmDay(now)));
  return { askable: Number(a?.n ?? 0), waiting: Number(w?.n ?? 0), sentToday: Number(s?.n ?? 0), perDay };
}

/** "Ask for consent": every askable address is put in the queue (recorded in Activity); returns how many. */
export async function queueConsentRequests(actor: Actor, now = new Date()): Promise<number> {
  return db().transaction(async (tx) => {
    const queued = await tx
      .update(subscribers)
      .set({ consent_request_queued_at: now })
      .where(and(askable(now), isNull(subscribers.consent_request_queued_at)))
      .returning({ id: subscribers.id });
    if (queued.length)
      await recordAudit(tx, actor, {
        action: "mail",
        itemType: "subscriber",
        itemLabel: `Requests for consent to ${queued.length} imported addresses`,
        changes: { "requests for consent": { after: queued.length } },
      });
    return queued.length;
  });
}

export type ConsentRequestToSend = { subscriberId: number; email: string; topics: string[]; token: string };

/**
 * Claims the waiting requests the day's allowance (`perDay` minus those sent
 * since the firm's day began) has room for: each is marked sent, gets a
 * confirmation link and its "requested" consent record. `keep` keeps each
 * message in the outbox in the same transaction; the caller sends them after.
 */
export async function claimConsentRequests<T>(
  perDay: number,
  keep: (tx: Db, request: ConsentRequestToSend) => Promise<T>,
  now = new Date(),
): Promise<T[]> {
  return db().transaction(async (tx) => {
    // One claim at a time on all instances: the day's count and the claim agree.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('consent-requests'))`);
    const [s] = await tx
      .select({ n: count() })
      .from(subscribers)
      .where(gte(subscribers.consent_requested_at, startOfFirmDay(now)));
    const room = perDay - Number(s?.n ?? 0);
    if (room <= 0) return [];
    const due = await tx
      .select({ id: subscribers.id, email: subscribers.email, topics: subscribers.topics })
      .from(subscribers)
      .where(and(askable(now), isNotNull(subscribers.consent_request_queued_at)))
      .orderBy(subscribers.consent_request_queued_at, subscribers.id)
      .limit(room)
      .for("update", { skipLocked: true });
    const kept: T[] = [];
    for (const r of due) {
      const token = randomBytes(32).toString("base64url");
      await tx.insert(subscriberTokens).values({
        token_hash: createHash("sha256").update(token).digest("hex"),
        subscriber_id: r.id,
        topics: r.topics,
        created_at: now,
        expires_at: new Date(now.getTime() + CONFIRMATION_LIFETIME_MS),
      });
      await tx.insert(subscriberConsents).values({
        subscriber_id: r.id,
        event: "requested",
        topics: r.topics,
        wording: CONSENT_WORDING,
        wording_version: CONSENT_VERSION,
        form_url: "Request for express consent (Subscribers: Ask for consent)",
        source: "consent-request",
        at: now,
      });
      await tx.update(subscribers).set({ consent_requested_at: now, consent_request_queued_at: null }).where(eq(subscribers.id, r.id));
      kept.push(await keep(tx, { subscriberId: r.id, email: r.email, topics: r.topics, token }));
    }
    return kept;
  });
}

/** Subscribers on implied consent: still mailable, and ended (never mailed again until they confirm). */
export async function impliedConsentCounts(now = new Date()): Promise<{ active: number; ended: number }> {
  const rows = await db()
    .select({ active: sql<boolean>`${subscribers.consent_expires_at} > ${now.toISOString()}::timestamptz`, n: count() })
    .from(subscribers)
    .where(and(eq(subscribers.status, "confirmed"), eq(subscribers.consent_kind, "implied")))
    .groupBy(sql`1`);
  let active = 0;
  let ended = 0;
  for (const r of rows) {
    if (r.active) active += Number(r.n);
    else ended += Number(r.n);
  }
  return { active, ended };
}

/** Finished imports (their refused rows hold addresses) are deleted this long after they finished (the `retention` job). */
export const IMPORT_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

export async function sweepImports(now = new Date()): Promise<number> {
  const removed = await db()
    .delete(subscriberImports)
    .where(
      and(
        inArray(subscriberImports.status, ["done", "failed"]),
        lt(subscriberImports.finished_at, new Date(now.getTime() - IMPORT_KEEP_MS)),
      ),
    )
    .returning({ id: subscriberImports.id });
  return removed.length;
}
