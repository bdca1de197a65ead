/**
 * The audit trail: every content write and sign-in event is recorded with
 * who, from where, what and the changed fields; a change and its record are
 * one transaction; the table refuses edits and deletes, except the
 * retention sweep.
 */
import { desc, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { fieldChanges, shortDiff, sweepAuditTrail, type Actor } from "~/.server/db/audit";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { db } from "~/.server/db/client";
import { auditLog, user } from "~/.server/db/schema";
import { createArticle, deleteArticle, updateArticle } from "~/.server/db/articles";
import { updateOfficeHours } from "~/.server/db/office-hours";
import { updatePageHeader } from "~/.server/db/page-headers";
import { createTeamMember, getTeamMemberById, updateTeamMember } from "~/.server/db/team";
import { LOGIN_ERROR, signIn } from "~/.server/auth/sign-in";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();

const alice: Actor = { userId: "user-alice", label: "alice@example.com", ip: "203.0.113.7" };
const member = {
  full_name: "Grace Hopper",
  title: "Partner",
  email: "grace@example.com",
  extension: 301,
  mobile: "",
  desc: "Short bio.",
  img: "",
  AOP: ["cyber"],
  area_details: [],
  staff: [],
};

/** The database's own message under Drizzle's "Failed query" wrapper. */
async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const e = error as { message: string; cause?: { message?: string } };
    return `${e.message} ${e.cause?.message ?? ""}`;
  }
  return "not refused";
}

async function entries() {
  return db().select().from(auditLog).orderBy(desc(auditLog.id));
}

describe("content writes", () => {
  it("records create, update and delete with the actor, address, item and changed fields", async () => {
    const created = await createTeamMember(member, alice);
    await updateTeamMember(created.id, { ...member, title: "Managing Partner" }, alice);
    const [update, create] = await entries();
    expect(create).toMatchObject({
      action: "create",
      item_type: "team",
      item_id: String(created.id),
      item_label: "Grace Hopper",
      actor_id: "user-alice",
      actor_label: "alice@example.com",
      ip: "203.0.113.7",
    });
    expect((create.changes as Record<string, { after: unknown }>).full_name.after).toBe("Grace Hopper");
    expect(update).toMatchObject({ action: "update", item_type: "team", item_id: String(created.id) });
    // Only what changed, before and after.
    expect(update.changes).toEqual({ title: { before: "Partner", after: "Managing Partner" } });

    const article = await createArticle(
      {
        title: "Ransomware and the duty to report",
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: `<p>${"Intro. ".repeat(60)}Notify within 72 hours.</p>`,
        date: "Monday, November 23, 2026",
      },
      alice,
    );
    await updateArticle(
      article.id,
      {
        title: article.title,
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: `<p>${"Intro. ".repeat(60)}Notify within 24 hours.</p>`,
      },
      alice,
    );
    const [articleUpdate] = await entries();
    // A long body is recorded as a short diff of its words, not both copies.
    const copy = (articleUpdate.changes as Record<string, { diff: string }>).copy;
    expect(copy.diff).toContain("[-72-]");
    expect(copy.diff).toContain("{+24+}");
    expect(copy.diff.length).toBeLessThan(700);

    await deleteArticle(article.id, alice);
    const [deleted] = await entries();
    expect(deleted).toMatchObject({ action: "delete", item_type: "article", item_label: "Ransomware and the duty to report" });

    await updateOfficeHours({ start_time: "8:30", end_time: "5:00" }, alice);
    await updatePageHeader("team", "Our lawyers", alice);
    const [header, hours] = await entries();
    expect(hours).toMatchObject({
      action: "update",
      item_type: "hours",
      changes: { start_time: { before: null, after: "8:30" }, end_time: { before: null, after: "5:00" } },
    });
    expect(header).toMatchObject({
      action: "update",
      item_type: "header",
      item_id: "team",
      changes: { header_text: { before: null, after: "Our lawyers" } },
    });
  });

  it("a change whose record cannot be written is not made (one transaction)", async () => {
    const created = await createTeamMember({ ...member, full_name: "Atomic Person", email: "atomic@example.com" }, alice);
    // Make the trail refuse the next insert.
    await db().execute(
      sql`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'trail unavailable'; end; $$`,
    );
    await db().execute(sql`create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`);
    try {
      await expect(updateTeamMember(created.id, { ...member, full_name: "Atomic Person", title: "Associate" }, alice)).rejects.toThrow();
    } finally {
      await db().execute(sql`drop trigger refuse_audit on audit_log`);
      await db().execute(sql`drop function refuse_audit()`);
    }
    expect((await getTeamMemberById(created.id))?.title).toBe("Partner");
  });
});

describe("publishing by hand", () => {
  const input = { title: "Draft First", img: "", category: "cyber", news: false, priority: false, copy: "<p>First words.</p>" };

  it("an article going live is recorded as publish, leaving the public site as unpublish, with the changed fields", async () => {
    const article = await createArticle({ ...input, state: { status: "draft" } }, alice);
    expect((await entries())[0]).toMatchObject({ action: "create", item_type: "article", item_id: String(article.id) });
    await updateArticle(article.id, { ...input, state: { status: "published" } }, alice);
    const [published] = await entries();
    expect(published).toMatchObject({
      action: "publish",
      item_type: "article",
      item_id: String(article.id),
      actor_id: "user-alice",
      item_label: "Draft First",
    });
    expect((published.changes as Record<string, unknown>).status).toEqual({ before: "draft", after: "published" });
    // Already live: an edit is an update.
    await updateArticle(article.id, { ...input, copy: "<p>Second words.</p>" }, alice);
    expect((await entries())[0]).toMatchObject({
      action: "update",
      changes: { copy: { before: "<p>First words.</p>", after: "<p>Second words.</p>" } },
    });
    await updateArticle(article.id, { ...input, state: { status: "draft" } }, alice);
    const [unpublished] = await entries();
    expect(unpublished).toMatchObject({ action: "unpublish", item_id: String(article.id) });
    expect((unpublished.changes as Record<string, unknown>).status).toEqual({ before: "published", after: "draft" });
    // Created straight onto the public site.
    const live = await createArticle({ ...input, title: "Straight Out" }, alice);
    expect((await entries())[0]).toMatchObject({
      action: "publish",
      item_id: String(live.id),
      changes: expect.objectContaining({ status: { after: "published" } }),
    });
  });

  it("a team member shown or hidden by hand is recorded as publish or unpublish", async () => {
    const person = { ...member, full_name: "Shown Later", email: "shown@example.com" };
    const created = await createTeamMember({ ...person, visibility: { visible: true, visibleFrom: null, hiddenFrom: null } }, alice);
    await updateTeamMember(created.id, { ...person, visibility: { visible: false, visibleFrom: null, hiddenFrom: null } }, alice);
    expect((await entries())[0]).toMatchObject({
      action: "unpublish",
      item_type: "team",
      item_id: String(created.id),
      changes: { visible: { before: true, after: false } },
    });
    await updateTeamMember(
      created.id,
      { ...person, title: "Counsel", visibility: { visible: true, visibleFrom: null, hiddenFrom: null } },
      alice,
    );
    expect((await entries())[0]).toMatchObject({
      action: "publish",
      changes: { visible: { before: false, after: true }, title: { before: "Partner", after: "Counsel" } },
    });
    await updateTeamMember(created.id, { ...person, title: "Senior Counsel" }, alice);
    expect((await entries())[0]).toMatchObject({ action: "update", changes: { title: { before: "Counsel", after: "Senior Counsel" } } });
  });
});

describe("append-only", () => {
  it("refuses to edit, delete or truncate entries", async () => {
    const [latest] = await entries();
    expect(await refusal(db().execute(sql`update audit_log set actor_label = 'someone else' where id = ${latest.id}`))).toMatch(
      /append-only/,
    );
    expect(await refusal(db().execute(sql`delete from audit_log where id = ${latest.id}`))).toMatch(/append-only/);
    expect(await refusal(db().execute(sql`truncate audit_log`))).toMatch(/append-only/);
    expect((await entries()).some((e) => e.id === latest.id && e.actor_label === "alice@example.com")).toBe(true);
  });

  it("the retention sweep removes only entries older than the retention period", async () => {
    const old = new Date(Date.now() - 800 * 24 * 60 * 60 * 1000);
    await db()
      .insert(auditLog)
      .values({ at: old, actor_label: "old@example.com", action: "update", item_type: "team", item_label: "Old change" });
    const before = (await entries()).length;
    expect(await sweepAuditTrail(730)).toBe(1);
    const after = await entries();
    expect(after).toHaveLength(before - 1);
    expect(after.some((e) => e.actor_label === "old@example.com")).toBe(false);
    expect(await sweepAuditTrail(730)).toBe(0);
  });
});

describe("sign-in events", () => {
  beforeAll(async () => {
    await createStaffAccount("owner@example.com", "a-long-enough-password");
  });
  const req = () => new Request("http://localhost:3000/admin", { method: "POST" });

  it("records a sign-in (with the account and its last sign-in time), a failed sign-in, and the lockout", async () => {
    expect((await signIn(req(), "owner@example.com", "a-long-enough-password", "198.51.100.1")).ok).toBe(true);
    const [signedIn] = await entries();
    const [account] = await db()
      .select()
      .from(user)
      .where(sql`${user.email} = 'owner@example.com'`);
    expect(signedIn).toMatchObject({ action: "sign-in", actor_id: account.id, actor_label: "owner@example.com", ip: "198.51.100.1" });
    expect(account.lastSignInAt).toBeInstanceOf(Date);

    for (let i = 0; i < 5; i++)
      expect(await signIn(req(), "owner@example.com", `wrong-password-${i}`, "198.51.100.2")).toMatchObject({ message: LOGIN_ERROR });
    const recent = (await entries()).slice(0, 6);
    expect(recent.filter((e) => e.action === "failed-sign-in")).toHaveLength(5);
    expect(recent[0]).toMatchObject({ action: "lockout", actor_label: "owner@example.com" });
    // The account exists: its failures and the lockout carry its id (the Activity screen's person filter, the link to the account).
    for (const e of recent.slice(0, 6)) expect(e, e.action).toMatchObject({ actor_id: account.id, item_id: account.id });
    // A name no account has stays without one.
    await signIn(req(), "no-such-person@example.com", "wrong-password-x", "198.51.100.3");
    expect((await entries())[0]).toMatchObject({
      action: "failed-sign-in",
      actor_id: null,
      item_id: null,
      actor_label: "no-such-person@example.com",
    });
    // No password is ever recorded.
    expect(JSON.stringify(await entries())).not.toContain("wrong-password");
  });
});

describe("field changes", () => {
  it("hides secrets and diffs long texts", () => {
    expect(fieldChanges({ password: "old-secret", name: "A" }, { password: "new-secret", name: "B" })).toEqual({
      password: { hidden: true },
      name: { before: "A", after: "B" },
    });
    const long = "word ".repeat(100);
    expect(fieldChanges({ desc: long }, { desc: `${long}added` }).desc).toEqual({ diff: expect.stringContaining("{+added+}") });
    expect(shortDiff("<p>Hello <strong>there</strong></p>", "<p>Hello world</p>")).toBe("Hello [-there-]{+world+}");
  });
});
