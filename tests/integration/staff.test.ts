/**
 * Staff accounts through the dashboard's own actions, against a real SMTP
 * server started here: an invitation arrives (plain text and HTML, a working
 * single-use link stored only as a hash), is accepted, cannot be used twice,
 * expires after 72 hours and can then ask for a new one; a refused message is
 * reported and kept in the outbox; "Forgot password?" answers the same
 * sentence for any address and its link works once, for 1 hour; common and
 * short passwords are refused; roles: only owners touch owners, the last
 * owner stays, nobody changes their own account, deactivation ends the
 * sessions at once; two-factor sign-in (TOTP computed from the shown key,
 * recovery codes, wrong codes limited) and the owner's "require two-factor".
 */
import { callRoute, testContext, type ActionAnswer, type RouteResult } from "../support/route-call";
import { cookiesOf, signInAs, STAFF_PASSWORD as PASSWORD } from "../support/staff-session";
import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { authHeaders, getAuth, withAuthTransaction } from "~/.server/auth/auth";
import { getStaff } from "~/.server/auth/staff-session";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { db } from "~/.server/db/client";
import { auditLog, mailOutbox, session, staffTokens, user } from "~/.server/db/schema";
import { setEnvForTests } from "~/.server/env";
import { resendMail, sendMail } from "~/.server/mail/mail";
import { signIn } from "~/.server/auth/sign-in";
import * as staffRoute from "~/routes/admin/staff";
import * as invitationRoute from "~/routes/admin/invitation";
import * as forgotRoute from "~/routes/admin/forgot-password";
import * as resetRoute from "~/routes/admin/reset-password";
import * as accountRoute from "~/routes/admin/account";
import * as twoFactorSetupRoute from "~/routes/admin/account-two-factor";
import * as twoFactorRoute from "~/routes/admin/two-factor";
import * as loginRoute from "~/routes/admin/login";
import * as hoursRoute from "~/routes/admin/hours";
import * as outboxMessageRoute from "~/routes/admin/outbox-message";
import { setUpTestSmtp } from "../support/mail-queue";
import { setUpTestDatabase } from "../support/database";
import { authenticator } from "../support/totp";

setUpTestDatabase();
const sink = setUpTestSmtp();

const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "192.0.2.44";
const context = testContext(CLIENT_IP);
let owner = "";

function post(path: string, fields: Record<string, string>, cookie = "") {
  return new Request(`${ORIGIN}${path}`, { method: "POST", body: new URLSearchParams(fields), headers: { cookie, origin: ORIGIN } });
}

/** The flash message a redirect carries (the next page's status region). */
async function flashOf(answer: RouteResult<ActionAnswer>): Promise<string> {
  const { readFlash } = await import("~/.server/admin/flash.server");
  const { status } = await readFlash(new Request(ORIGIN, { headers: { cookie: cookiesOf(answer.headers) } }));
  return status?.text ?? "";
}

const linkIn = (text: string, kind: "invitation" | "reset-password") =>
  new RegExp(`${ORIGIN}/admin/${kind}/([A-Za-z0-9_-]+)`).exec(text)?.[1] ?? "";

async function userRow(email: string) {
  const [row] = await db().select().from(user).where(eq(user.email, email));
  return row;
}

beforeAll(async () => {
  setEnvForTests({ SMTP_URL: sink.smtp.url, PUBLIC_URL: ORIGIN });
  await createStaffAccount("owner@example.com", PASSWORD, "Olive Owner", "owner");
  owner = await signInAs("owner@example.com");
});

async function invite(email: string, role: string, cookie = owner) {
  return callRoute<ActionAnswer>(staffRoute.action, post("/dashboard/staff", { intent: "invite", email, role }, cookie), {}, context);
}

async function acceptInvitation(token: string, name: string, password: string) {
  return callRoute<ActionAnswer>(
    invitationRoute.action,
    post(`/admin/invitation/${token}`, { intent: "accept", name, password, confirm: password }),
    { token },
    context,
  );
}

describe("invitations by e-mail", () => {
  it("sends a working single-use link (text and HTML), stored only as a hash; the invitee sets a name and password", async () => {
    const answer = await invite("ed@example.com", "editor");
    expect(answer.status).toBe(302);
    expect(await flashOf(answer)).toBe("ed@example.com has been invited as editor. The e-mail has been sent.");
    const mail = await sink.smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes("ed@example.com"));
    expect(mail.subject).toMatch(/invitation/i);
    const token = linkIn(mail.text ?? "", "invitation");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`/admin/invitation/${token}`);
    // Only the hash is stored; the delivered body is not kept in the outbox.
    const tokens = await db().select().from(staffTokens);
    expect(JSON.stringify(tokens)).not.toContain(token);
    const [kept] = await db().select().from(mailOutbox).where(eq(mailOutbox.to_address, "ed@example.com"));
    expect(kept.text_body).not.toContain(token);
    expect(await userRow("ed@example.com")).toMatchObject({ role: "editor", status: "invited" });

    // The page opens; a short, then a common password are refused, the name kept.
    const page = await callRoute<ActionAnswer>(
      invitationRoute.loader,
      new Request(`${ORIGIN}/admin/invitation/${token}`),
      { token },
      context,
    );
    expect(page.data).toMatchObject({ state: "valid", email: "ed@example.com", role: "Editor" });
    const short = await acceptInvitation(token, "Ed Editor", "short");
    expect(short.status).toBe(400);
    expect(short.data?.errors?.password).toBe("The password must be at least 12 characters.");
    expect(short.data?.name).toBe("Ed Editor");
    const common = await acceptInvitation(token, "Ed Editor", "1qaz2wsx3edc");
    expect(common.data?.errors?.password).toMatch(/10,000 most common passwords/);
    const mismatch = await callRoute<ActionAnswer>(
      invitationRoute.action,
      post(`/admin/invitation/${token}`, {
        intent: "accept",
        name: "Ed",
        password: "an-editor-passphrase-1",
        confirm: "something else entirely",
      }),
      { token },
      context,
    );
    expect(mismatch.data?.errors?.confirm).toMatch(/do not match/);

    const accepted = await acceptInvitation(token, "Ed Editor", "an-editor-passphrase-1");
    expect(accepted.status).toBe(302);
    expect(accepted.location).toBe("/admin");
    expect(await userRow("ed@example.com")).toMatchObject({ status: "active", name: "Ed Editor" });
    expect((await signIn(new Request(`${ORIGIN}/admin`), "ed@example.com", "an-editor-passphrase-1", "192.0.2.2")).ok).toBe(true);

    // Single use: the same link now says so, and nothing changes.
    const again = await acceptInvitation(token, "Someone Else", "another-passphrase-22");
    expect(again.status).toBe(410);
    expect(again.data?.status?.text).toMatch(/not valid: it has already been used/);
    expect((await userRow("ed@example.com")).name).toBe("Ed Editor");
  });

  it("the Staff screen lists every account with role, status, two-factor and last sign-in", async () => {
    const page = await callRoute<ActionAnswer>(
      staffRoute.loader,
      new Request(`${ORIGIN}/dashboard/staff`, { headers: { cookie: owner } }),
      {},
      context,
    );
    const accounts = (page.data as unknown as { accounts: Record<string, unknown>[] }).accounts;
    expect(accounts[0]).toMatchObject({
      email: "owner@example.com",
      roleLabel: "Owner",
      status: "active",
      twoFactor: false,
      manageable: false,
    });
    expect(accounts.find((a) => a.email === "ed@example.com")).toMatchObject({
      roleLabel: "Editor",
      status: "active",
      manageable: true,
      passkeys: 0,
    });
    expect(String(accounts[0].lastSignIn)).not.toBe("Never");
  });

  it("a forged link is refused with a clear message", async () => {
    const token = "forged-token-forged-token-forged-token-xx";
    const page = await callRoute<ActionAnswer>(
      invitationRoute.loader,
      new Request(`${ORIGIN}/admin/invitation/${token}`),
      { token },
      context,
    );
    expect(page.data).toMatchObject({ state: "invalid" });
    expect((await acceptInvitation(token, "X", "a-good-passphrase-9")).status).toBe(410);
  });

  it("expires after 72 hours; the expired page asks for a new one, sent to the same address", async () => {
    await invite("late@example.com", "editor");
    const mail = await sink.smtp.waitFor((m) => JSON.stringify(m.to).includes("late@example.com"));
    const token = linkIn(mail.text ?? "", "invitation");
    const target = await userRow("late@example.com");
    await db()
      .update(staffTokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(staffTokens.user_id, target.id));
    const page = await callRoute<ActionAnswer>(
      invitationRoute.loader,
      new Request(`${ORIGIN}/admin/invitation/${token}`),
      { token },
      context,
    );
    expect(page.data).toMatchObject({ state: "expired" });
    expect((await acceptInvitation(token, "Late", "a-good-passphrase-9")).data?.status?.text).toMatch(
      /expired: invitations work for 72 hours/,
    );
    const count = sink.smtp.messages.length;
    const renewed = await callRoute<ActionAnswer>(
      invitationRoute.action,
      post(`/admin/invitation/${token}`, { intent: "renew" }),
      { token },
      context,
    );
    expect(renewed.data?.status).toEqual({
      tone: "success",
      text: "A new invitation has been made for the address this one was sent to. It works once, for 72 hours. The e-mail has been sent.",
    });
    const fresh = await sink.smtp.waitFor(
      (m) => sink.smtp.messages.indexOf(m) >= count && JSON.stringify(m.to).includes("late@example.com"),
    );
    const newToken = linkIn(fresh.text ?? "", "invitation");
    expect(newToken).not.toBe(token);
    // The expired link cannot be renewed twice.
    expect(
      (await callRoute<ActionAnswer>(invitationRoute.action, post(`/admin/invitation/${token}`, { intent: "renew" }), { token }, context))
        .status,
    ).toBe(410);
    expect((await acceptInvitation(newToken, "Late Comer", "a-good-passphrase-9")).status).toBe(302);
  });

  it("an expired invitation asked for again while the SMTP server refuses for now: says the e-mail could not be sent and keeps it to retry", async () => {
    await invite("late-refused@example.com", "editor");
    const mail = await sink.smtp.waitFor((m) => JSON.stringify(m.to).includes("late-refused@example.com"));
    const token = linkIn(mail.text ?? "", "invitation");
    const target = await userRow("late-refused@example.com");
    await db()
      .update(staffTokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(staffTokens.user_id, target.id));
    sink.smtp.refuseForNow = true;
    let renewed: RouteResult<ActionAnswer>;
    try {
      renewed = await callRoute<ActionAnswer>(
        invitationRoute.action,
        post(`/admin/invitation/${token}`, { intent: "renew" }),
        { token },
        context,
      );
    } finally {
      sink.smtp.refuseForNow = false;
    }
    expect(renewed.data?.state).toBe("renewed");
    expect(renewed.data?.status?.tone).toBe("error");
    expect(renewed.data?.status?.text).toMatch(
      /^A new invitation has been made .* But the e-mail could not be sent \(.*451.*\)\. It is kept in the Outbox and will be tried again automatically/,
    );
    const [kept] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to_address, "late-refused@example.com"))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(kept).toMatchObject({ status: "failed", kind: "invitation" });
    expect(kept.next_attempt_at).not.toBeNull();
  });

  it("when the SMTP server refuses for now (4xx), says the e-mail could not be sent and keeps it in the outbox to retry", async () => {
    sink.smtp.refuseForNow = true;
    try {
      const answer = await invite("refused@example.com", "admin");
      expect(answer.status).toBe(302);
      expect(await flashOf(answer)).toMatch(
        /^refused@example.com has been invited as admin\. But the e-mail could not be sent \(.*451.*\)\. It is kept in the Outbox and will be tried again/,
      );
      const [kept] = await db().select().from(mailOutbox).where(eq(mailOutbox.to_address, "refused@example.com"));
      expect(kept).toMatchObject({ status: "failed", kind: "invitation" });
      expect(kept.next_attempt_at).not.toBeNull();
    } finally {
      sink.smtp.refuseForNow = false;
    }
  });

  it("when the SMTP server refuses the address for good (5xx), says so, and keeps it in the outbox without retrying", async () => {
    sink.smtp.refuse = true;
    try {
      const answer = await invite("no-such-mailbox@example.com", "editor");
      expect(answer.status).toBe(302);
      expect(await flashOf(answer)).toMatch(
        /^no-such-mailbox@example.com has been invited as editor\. But the e-mail server refused the address for good \(.*550.*\), so it will not be tried again\. Check the address/,
      );
      const [kept] = await db().select().from(mailOutbox).where(eq(mailOutbox.to_address, "no-such-mailbox@example.com"));
      expect(kept).toMatchObject({ status: "failed", kind: "invitation", next_attempt_at: null });
    } finally {
      sink.smtp.refuse = false;
    }
  });

  it("send again replaces the link; withdraw removes the invited account", async () => {
    await invite("twice@example.com", "editor");
    const first = linkIn((await sink.smtp.waitFor((m) => JSON.stringify(m.to).includes("twice@example.com"))).text ?? "", "invitation");
    const target = await userRow("twice@example.com");
    const count = sink.smtp.messages.length;
    const resent = await callRoute<ActionAnswer>(
      staffRoute.action,
      post("/dashboard/staff", { intent: "resend", id: target.id }, owner),
      {},
      context,
    );
    expect(await flashOf(resent)).toMatch(/earlier link no longer works/);
    const second = linkIn(
      (await sink.smtp.waitFor((m) => sink.smtp.messages.indexOf(m) >= count && JSON.stringify(m.to).includes("twice@example.com"))).text ??
        "",
      "invitation",
    );
    expect((await callRoute<ActionAnswer>(invitationRoute.loader, new Request(ORIGIN), { token: first }, context)).data).toMatchObject({
      state: "invalid",
    });
    expect((await callRoute<ActionAnswer>(invitationRoute.loader, new Request(ORIGIN), { token: second }, context)).data).toMatchObject({
      state: "valid",
    });
    const withdrawn = await callRoute<ActionAnswer>(
      staffRoute.action,
      post("/dashboard/staff", { intent: "withdraw", id: target.id }, owner),
      {},
      context,
    );
    expect(await flashOf(withdrawn)).toBe("The invitation for twice@example.com has been withdrawn.");
    expect(await userRow("twice@example.com")).toBeUndefined();
    expect((await callRoute<ActionAnswer>(invitationRoute.loader, new Request(ORIGIN), { token: second }, context)).data).toMatchObject({
      state: "invalid",
    });
  });

  it("refuses a bad address or role with messages and keeps what was typed; an existing address is refused", async () => {
    const bad = await invite("not-an-email", "boss");
    expect(bad.status).toBe(400);
    expect(bad.data?.errors?.email).toMatch(/valid email/);
    expect(bad.data?.errors?.role).toBe("Choose a role.");
    expect(bad.data?.values).toEqual({ email: "not-an-email", role: "boss" });
    const dup = await invite("owner@example.com", "editor");
    expect(dup.status).toBe(409);
    expect(dup.data?.errors?.email).toBe("There is already a staff account with this e-mail address.");
  });
});

describe("forgot password and reset links", () => {
  const forgot = (email: string) => callRoute<ActionAnswer>(forgotRoute.action, post("/admin/forgot-password", { email }), {}, context);

  it("answers the same sentence whether or not the account exists; the link works once, for 1 hour, and ends every session", async () => {
    await createStaffAccount("forgetful@example.com", PASSWORD, "Fran", "editor");
    const open = await signInAs("forgetful@example.com");
    const known = await forgot("forgetful@example.com");
    const unknown = await forgot("nobody@example.com");
    expect(known.data?.status).toEqual(unknown.data?.status);
    expect(known.data?.status?.text).toMatch(/^If an active staff account uses that address/);
    const mail = await sink.smtp.waitFor((m) => JSON.stringify(m.to).includes("forgetful@example.com"));
    const token = linkIn(mail.text ?? "", "reset-password");
    expect(mail.html).toContain(`/admin/reset-password/${token}`);
    expect(sink.smtp.messages.some((m) => JSON.stringify(m.to).includes("nobody@example.com"))).toBe(false);

    const reset = (password: string) =>
      callRoute<ActionAnswer>(
        resetRoute.action,
        post(`/admin/reset-password/${token}`, { password, confirm: password }),
        { token },
        context,
      );
    expect((await reset("123qweasdzxc")).data?.errors?.password).toMatch(/10,000 most common/);
    const done = await reset("a-brand-new-passphrase");
    expect(done.status).toBe(302);
    expect(await flashOf(done)).toMatch(/Your new password is set/);
    expect(await getStaff(new Request(ORIGIN, { headers: { cookie: open } }))).toBeNull();
    expect((await signIn(new Request(`${ORIGIN}/admin`), "forgetful@example.com", "a-brand-new-passphrase", "192.0.2.3")).ok).toBe(true);
    const reused = await reset("yet-another-passphrase");
    expect(reused.status).toBe(410);
    expect(reused.data?.status?.text).toMatch(/not valid: it has already been used/);
  });

  it("an expired reset link says so and offers a new one", async () => {
    await forgot("forgetful@example.com");
    const mails = sink.smtp.messages.filter((m) => JSON.stringify(m.to).includes("forgetful@example.com"));
    await new Promise((r) => setTimeout(r, 300));
    const latest = await sink.smtp.waitFor(
      (m) =>
        sink.smtp.messages.filter((x) => JSON.stringify(x.to).includes("forgetful@example.com")).length > mails.length &&
        m === sink.smtp.messages.at(-1),
    );
    const token = linkIn(latest.text ?? "", "reset-password");
    await db()
      .update(staffTokens)
      .set({ expires_at: new Date(Date.now() - 1) })
      .where(eq(staffTokens.kind, "reset"));
    const page = await callRoute<ActionAnswer>(resetRoute.loader, new Request(ORIGIN), { token }, context);
    expect(page.data).toMatchObject({ state: "expired" });
  });
});

describe("the events coordinator (issue 45)", () => {
  it("is offered on the Staff screen, invited with its label, and its role changed to and from it", async () => {
    const screen = await callRoute<ActionAnswer>(
      staffRoute.loader,
      new Request(`${ORIGIN}/dashboard/staff`, { headers: { cookie: owner } }),
      {},
      context,
    );
    expect((screen.data as { roles: { value: string; label: string }[] }).roles).toContainEqual({
      value: "events",
      label: "Events coordinator",
    });
    const answer = await invite("coordinator@example.com", "events");
    expect(answer.status).toBe(302);
    expect(await flashOf(answer)).toMatch(/^coordinator@example\.com has been invited as events coordinator\./);
    expect(await userRow("coordinator@example.com")).toMatchObject({ role: "events", status: "invited" });
    await createStaffAccount("becomes-coordinator@example.com", PASSWORD, "Bea", "editor");
    const row = await userRow("becomes-coordinator@example.com");
    const changed = await callRoute<ActionAnswer>(
      staffRoute.action,
      post("/dashboard/staff", { intent: "role", id: row.id, role: "events" }, owner),
      {},
      context,
    );
    expect(await flashOf(changed)).toBe("becomes-coordinator@example.com is now events coordinator.");
    expect((await userRow("becomes-coordinator@example.com")).role).toBe("events");
  });
});

describe("roles, the last owner, deactivation", () => {
  it("only owners make or change owners; nobody changes their own account; the last owner stays", async () => {
    await createStaffAccount("admin@example.com", PASSWORD, "Ada Admin", "admin");
    const admin = await signInAs("admin@example.com");
    const ownerRow = await userRow("owner@example.com");
    const act = (cookie: string, fields: Record<string, string>) =>
      callRoute<ActionAnswer>(staffRoute.action, post("/dashboard/staff", fields, cookie), {}, context);
    // An admin cannot invite an owner, nor touch an owner's account.
    expect((await invite("new-owner@example.com", "owner", admin)).data?.errors?.role).toBe("Only an owner can make someone an owner.");
    expect((await act(admin, { intent: "deactivate", id: ownerRow.id })).status).toBe(403);
    expect((await act(admin, { intent: "role", id: ownerRow.id, role: "editor" })).status).toBe(403);
    // The owner cannot demote or deactivate itself (and is the last owner).
    const self = await act(owner, { intent: "role", id: ownerRow.id, role: "admin" });
    expect(self.data?.status?.text).toMatch(/cannot change your own role/);
    expect((await userRow("owner@example.com")).role).toBe("owner");
    // A second owner may demote the first; the last owner cannot be demoted or deactivated.
    const adminRow = await userRow("admin@example.com");
    expect((await act(owner, { intent: "role", id: adminRow.id, role: "owner" })).status).toBe(302);
    const second = await signInAs("admin@example.com");
    expect((await act(second, { intent: "role", id: ownerRow.id, role: "admin" })).status).toBe(302);
    const first = await signInAs("owner@example.com");
    expect((await userRow("owner@example.com")).role).toBe("admin");
    const last = await act(second, { intent: "role", id: ownerRow.id, role: "owner" });
    expect(last.status).toBe(302);
    // Now two owners again: restore, then check the last-owner rule directly in the query module (the actor is another owner).
    const { changeRole, deactivateStaff } = await import("~/.server/db/staff");
    await changeRole(adminRow.id, "admin", { userId: ownerRow.id, label: "owner@example.com", ip: "" }, "owner");
    await expect(changeRole(ownerRow.id, "editor", { userId: "someone-else", label: "x", ip: "" }, "owner")).rejects.toThrow(
      /last active owner/,
    );
    await expect(deactivateStaff(ownerRow.id, { userId: "someone-else", label: "x", ip: "" }, "owner")).rejects.toThrow(
      /last active owner/,
    );
    expect(first).not.toBe("");
    const roleChanges = await db().select().from(auditLog).where(eq(auditLog.action, "role-change")).orderBy(desc(auditLog.id));
    expect(roleChanges[0]).toMatchObject({ item_label: "admin@example.com", changes: { role: { before: "owner", after: "admin" } } });
  });

  it("deactivating ends that person's sessions at once and is recorded; reactivating lets them sign in again", async () => {
    await createStaffAccount("leaver@example.com", PASSWORD, "Lee Leaver", "editor");
    const cookie = await signInAs("leaver@example.com");
    const target = await userRow("leaver@example.com");
    const answer = await callRoute<ActionAnswer>(
      staffRoute.action,
      post("/dashboard/staff", { intent: "deactivate", id: target.id }, owner),
      {},
      context,
    );
    expect(await flashOf(answer)).toBe("leaver@example.com has been deactivated and signed out everywhere.");
    expect(await db().select().from(session).where(eq(session.userId, target.id))).toHaveLength(0);
    const next = await callRoute<ActionAnswer>(
      hoursRoute.action,
      post("/dashboard/hours/edit", { start_time: "7:00", end_time: "3:00" }, cookie),
      {},
      context,
    );
    expect(next.status).toBe(401);
    expect((await signIn(new Request(`${ORIGIN}/admin`), "leaver@example.com", PASSWORD, "192.0.2.5")).ok).toBe(false);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "deactivate")).orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({ actor_label: "owner@example.com", item_label: "leaver@example.com", ip: CLIENT_IP });
    await callRoute<ActionAnswer>(staffRoute.action, post("/dashboard/staff", { intent: "reactivate", id: target.id }, owner), {}, context);
    expect((await signIn(new Request(`${ORIGIN}/admin`), "leaver@example.com", PASSWORD, "192.0.2.5")).ok).toBe(true);
  });
});

describe("an editor and the staff-only actions", () => {
  it("every staff-only action (Staff, Activity, Outbox, security) answers 403 to an editor and writes nothing", async () => {
    await createStaffAccount("plain-editor@example.com", PASSWORD, "Pat", "editor");
    const editor = await signInAs("plain-editor@example.com");
    const target = await userRow("ed@example.com");
    const [mail] = await db().select().from(mailOutbox).limit(1);
    const snapshot = async () =>
      JSON.stringify(
        await db().execute(
          sql`select (select json_agg(u order by u.id) from "user" u) as u, (select json_agg(t order by t.id) from staff_tokens t) as t, (select json_agg(s) from site_settings s) as s, (select json_agg(m.status order by m.id) from mail_outbox m) as m`,
        ),
      );
    const routes = [
      ["routes/admin/staff.tsx", "/dashboard/staff", {}],
      ["routes/admin/outbox.tsx", "/dashboard/outbox", {}],
      ["routes/admin/outbox-message.tsx", `/dashboard/outbox/${mail.id}`, { id: String(mail.id) }],
    ] as const;
    const intents: Record<string, string>[] = [
      { intent: "invite", email: "sneaky@example.com", role: "owner" },
      { intent: "role", id: target.id, role: "owner" },
      { intent: "deactivate", id: target.id },
      { intent: "reactivate", id: target.id },
      { intent: "resend", id: target.id },
      { intent: "withdraw", id: target.id },
      { intent: "security", require_two_factor: "on" },
      { intent: "resend", id: String(mail.id) },
    ];
    const admin = await signInAs("admin@example.com");
    const before = await snapshot();
    for (const [file, path, params] of routes) {
      const mod = (await import(`~/${file.replace(/\.tsx$/, "")}`)) as {
        action: (a: unknown) => Promise<unknown>;
        loader: (a: unknown) => Promise<unknown>;
      };
      expect(
        (await callRoute<ActionAnswer>(mod.loader, new Request(`${ORIGIN}${path}`, { headers: { cookie: editor } }), params, context))
          .status,
        `${file} loader`,
      ).toBe(403);
      for (const fields of intents) {
        const answer = await callRoute<ActionAnswer>(mod.action, post(path, fields, editor), params, context);
        expect(answer.status, `${file} ${fields.intent}`).toBe(403);
      }
    }
    const activity = await import("~/routes/admin/activity");
    expect(
      (
        await callRoute<ActionAnswer>(
          activity.loader,
          new Request(`${ORIGIN}/dashboard/activity`, { headers: { cookie: editor } }),
          {},
          context,
        )
      ).status,
    ).toBe(403);
    expect(await snapshot()).toBe(before);
    // An admin may use the Staff screen but not the owners' security setting or the outbox.
    expect(
      (
        await callRoute<ActionAnswer>(
          staffRoute.action,
          post("/dashboard/staff", { intent: "security", require_two_factor: "on" }, admin),
          {},
          context,
        )
      ).status,
    ).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});

const setup = (cookie: string, fields: Record<string, string>) =>
  callRoute<ActionAnswer>(twoFactorSetupRoute.action, post("/dashboard/account/two-factor", fields, cookie), {}, context);

/** Sets up two-factor sign-in as a person would (key shown, code computed from it); returns the new session cookie. */
async function turnOnTwoFactor(cookie: string): Promise<string> {
  const started = await setup(cookie, { intent: "start", current: PASSWORD });
  const secret = String(started.data?.secret).replace(/\s+/g, "");
  const code = await authenticator(secret).totp();
  const confirmed = await setup(cookie, { intent: "confirm", uri: String(started.data?.uri), code });
  expect(confirmed.status).toBe(200);
  return cookiesOf(confirmed.headers);
}

describe("two-factor sign-in", () => {
  it("set up from the shown key, confirmed with a code; sign-in then asks for the code; recovery codes work once; wrong codes are limited", async () => {
    await createStaffAccount("careful@example.com", PASSWORD, "Cam", "editor");
    let cookie = await signInAs("careful@example.com");
    expect((await setup(cookie, { intent: "start", current: "wrong-password-here" })).data?.errors?.current).toBe(
      "The current password is not correct.",
    );
    const started = await setup(cookie, { intent: "start", current: PASSWORD });
    expect(started.data?.step).toBe("confirm");
    expect(String(started.data?.qr)).toMatch(/^data:image\/png;base64,/);
    const secret = String(started.data?.secret).replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const uri = String(started.data?.uri);
    const totp = () => authenticator(secret).totp();
    const wrong = await setup(cookie, { intent: "confirm", uri, code: "999999" });
    expect(wrong.status).toBe(400);
    const confirmed = await setup(cookie, { intent: "confirm", uri, code: await totp() });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.data?.codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    cookie = cookiesOf(confirmed.headers) || cookie;
    expect((await userRow("careful@example.com")).twoFactorEnabled).toBe(true);

    // Password alone no longer signs in: the code step follows.
    const login = () =>
      callRoute<ActionAnswer>(
        loginRoute.action,
        post("/admin", { email: "careful@example.com", password: PASSWORD, redirectTo: "/dashboard/hours/edit" }),
        {},
        context,
      );
    const step = await login();
    expect(step.status).toBe(302);
    expect(step.location).toBe("/admin/two-factor?redirectTo=%2Fdashboard%2Fhours%2Fedit");
    const pending = cookiesOf(step.headers);
    expect(pending).toContain("two_factor");
    expect(pending).not.toContain("session_token=");
    const code = (value: string, c = pending) =>
      callRoute<ActionAnswer>(twoFactorRoute.action, post("/admin/two-factor", { code: value, redirectTo: "/dashboard" }, c), {}, context);
    const bad = await code("123456");
    expect(bad.status).toBe(401);
    expect(bad.data?.status?.text).toMatch(/That code is not correct/);
    const good = await code(await totp());
    expect(good.status).toBe(302);
    expect(good.location).toBe("/dashboard");
    const session2 = cookiesOf(good.headers);
    expect((await getStaff(new Request(ORIGIN, { headers: { cookie: session2 } })))?.email).toBe("careful@example.com");
    const [signInEntry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sign-in"), eq(auditLog.actor_label, "careful@example.com")))
      .orderBy(desc(auditLog.id));
    expect(signInEntry.changes).toEqual({ method: { after: "password and authenticator code" } });

    // A recovery code works once.
    const viaRecovery = await code(codes[0], cookiesOf((await login()).headers));
    expect(viaRecovery.status).toBe(302);
    const reuse = await code(codes[0], cookiesOf((await login()).headers));
    expect(reuse.status).toBe(401);

    // Wrong codes count like wrong passwords: the 5th failure in 15 minutes locks the account.
    const fresh = cookiesOf((await login()).headers);
    let last: RouteResult<ActionAnswer> | undefined;
    for (let i = 0; i < 6; i++) last = await code("000000", fresh);
    expect(last!.data?.status?.text ?? "").toMatch(/Too many failed sign-in attempts|sign in again/i);
    const locked = await login();
    expect(locked.data?.status?.text).toMatch(/Too many failed sign-in attempts/);
    expect(
      (
        await db()
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, "lockout"), eq(auditLog.item_label, "careful@example.com")))
      ).length,
    ).toBeGreaterThan(0);
  });

  it("a plugin's change and its trail entry are one transaction: when the entry cannot be written, the change is undone", async () => {
    await createStaffAccount("atomic@example.com", PASSWORD, "Ada", "editor");
    const cookie = await turnOnTwoFactor(await signInAs("atomic@example.com"));
    const entries = async () =>
      (
        await db()
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, "two-factor"), eq(auditLog.item_label, "atomic@example.com")))
      ).length;
    // Set-up started, then confirmed.
    expect(await entries()).toBe(2);
    const request = new Request(ORIGIN, { headers: { cookie } });
    // better-auth turns it off inside the transaction; the audit write then fails: nothing may remain.
    await expect(
      withAuthTransaction(async (tx) => {
        await getAuth().api.disableTwoFactor({ body: { password: PASSWORD }, headers: authHeaders(request) });
        expect((await tx.select().from(user).where(eq(user.email, "atomic@example.com")))[0].twoFactorEnabled).toBe(false);
        throw new Error("the audit entry could not be written");
      }),
    ).rejects.toThrow("the audit entry could not be written");
    expect((await userRow("atomic@example.com")).twoFactorEnabled).toBe(true);
    expect(await entries()).toBe(2);
    // Through the screen: the change and its entry together.
    const off = await setup(cookie, { intent: "disable", current: PASSWORD });
    expect(off.status).toBeLessThan(500);
    expect((await userRow("atomic@example.com")).twoFactorEnabled).toBe(false);
    expect(await entries()).toBe(3);
  });

  it("an owner can require it: a person without it is sent to set it up before anything else", async () => {
    const admin = await signInAs("admin@example.com");
    await createStaffAccount("second-owner@example.com", PASSWORD, "Sam", "owner");
    let ownerCookie = await signInAs("second-owner@example.com");
    // An owner without it cannot require it for everyone (that would lock the owner out first).
    const refused = await callRoute<ActionAnswer>(
      staffRoute.action,
      post("/dashboard/staff", { intent: "security", require_two_factor: "on" }, ownerCookie),
      {},
      context,
    );
    expect(refused.data?.status?.text).toMatch(/Set up two-factor sign-in for your own account first/);
    ownerCookie = await turnOnTwoFactor(ownerCookie);
    const on = await callRoute<ActionAnswer>(
      staffRoute.action,
      post("/dashboard/staff", { intent: "security", require_two_factor: "on" }, ownerCookie),
      {},
      context,
    );
    expect(await flashOf(on)).toBe("Two-factor sign-in is now required for every staff account.");
    const dashboard = await import("~/routes/admin/dashboard");
    const sent = await callRoute<ActionAnswer>(
      dashboard.loader,
      new Request(`${ORIGIN}/dashboard`, { headers: { cookie: admin } }),
      {},
      context,
    );
    expect(sent.status).toBe(302);
    expect(sent.location).toBe("/dashboard/account/two-factor");
    const write = await callRoute<ActionAnswer>(
      hoursRoute.action,
      post("/dashboard/hours/edit", { start_time: "6:00", end_time: "2:00" }, admin),
      {},
      context,
    );
    expect(write.status).toBe(403);
    // The set-up page itself opens.
    expect(
      (
        await callRoute<ActionAnswer>(
          twoFactorSetupRoute.loader,
          new Request(`${ORIGIN}/dashboard/account/two-factor`, { headers: { cookie: admin } }),
          {},
          context,
        )
      ).status,
    ).toBe(200);
    const off = await callRoute<ActionAnswer>(
      staffRoute.action,
      post("/dashboard/staff", { intent: "security" }, ownerCookie),
      {},
      context,
    );
    expect(off.status).toBe(302);
    expect(
      (await callRoute<ActionAnswer>(dashboard.loader, new Request(`${ORIGIN}/dashboard`, { headers: { cookie: admin } }), {}, context))
        .status,
    ).toBe(200);
  });
});

describe("My account", () => {
  it("changes the password with the current one and ends the other sessions; lists one's sessions; signs out everywhere else", async () => {
    await createStaffAccount("mover@example.com", PASSWORD, "Mo", "editor");
    const here = await signInAs("mover@example.com");
    const elsewhere = await signInAs("mover@example.com");
    const act = (fields: Record<string, string>) =>
      callRoute<ActionAnswer>(accountRoute.action, post("/dashboard/account", fields, here), {}, context);
    const page = await callRoute<ActionAnswer>(
      accountRoute.loader,
      new Request(`${ORIGIN}/dashboard/account`, {
        headers: { cookie: here, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0" },
      }),
      {},
      context,
    );
    const sessions = (page.data as unknown as { sessions: { current: boolean; ip: string }[] }).sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ current: true, ip: "192.0.2.1" });
    const wrong = await act({
      intent: "password",
      current: "not-my-password-x",
      password: "a-moving-passphrase",
      confirm: "a-moving-passphrase",
    });
    expect(wrong.data?.errors?.current).toBe("The current password is not correct.");
    const changed = await act({ intent: "password", current: PASSWORD, password: "a-moving-passphrase", confirm: "a-moving-passphrase" });
    expect(await flashOf(changed)).toBe("Your password has been changed; 1 other session was signed out.");
    expect(await getStaff(new Request(ORIGIN, { headers: { cookie: elsewhere } }))).toBeNull();
    expect(await getStaff(new Request(ORIGIN, { headers: { cookie: here } }))).not.toBeNull();
    const third = await signInAs("mover@example.com", "a-moving-passphrase");
    const out = await act({ intent: "sign-out-others" });
    expect(await flashOf(out)).toBe("Signed out everywhere else (1 session).");
    expect(await getStaff(new Request(ORIGIN, { headers: { cookie: third } }))).toBeNull();
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "password-change")).orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({ actor_label: "mover@example.com" });
    expect(JSON.stringify(entry.changes)).not.toContain("a-moving-passphrase");
  });
});

const HOUR = 3_600_000;
const forgotFrom = (email: string, ctx = context) =>
  callRoute<ActionAnswer>(forgotRoute.action, post("/admin/forgot-password", { email }), {}, ctx);

describe("e-mailed links: how long they work, and the trail", () => {
  it("an invitation expires 72 hours after it is issued, a reset link 1 hour after", async () => {
    const before = Date.now();
    await invite("expiry@example.com", "editor");
    const after = Date.now();
    const invited = await userRow("expiry@example.com");
    const [invitation] = await db()
      .select()
      .from(staffTokens)
      .where(and(eq(staffTokens.user_id, invited.id), eq(staffTokens.kind, "invitation")));
    expect(invitation.expires_at.getTime()).toBeGreaterThanOrEqual(before + 72 * HOUR);
    expect(invitation.expires_at.getTime()).toBeLessThanOrEqual(after + 72 * HOUR);

    await createStaffAccount("expiry-reset@example.com", PASSWORD, "Rae", "editor");
    const account = await userRow("expiry-reset@example.com");
    const start = Date.now();
    await forgotFrom("expiry-reset@example.com");
    const end = Date.now();
    const [reset] = await db()
      .select()
      .from(staffTokens)
      .where(and(eq(staffTokens.user_id, account.id), eq(staffTokens.kind, "reset")));
    expect(reset.expires_at.getTime()).toBeGreaterThanOrEqual(start + HOUR);
    expect(reset.expires_at.getTime()).toBeLessThanOrEqual(end + HOUR);
  });

  it("a reset link issued by Forgot password? is recorded on the account, without the token", async () => {
    await createStaffAccount("asked@example.com", PASSWORD, "Ash", "editor");
    const account = await userRow("asked@example.com");
    await forgotFrom("asked@example.com", testContext("192.0.2.60"));
    const token = linkIn((await sink.smtp.waitFor((m) => JSON.stringify(m.to).includes("asked@example.com"))).text ?? "", "reset-password");
    expect(token).not.toBe("");
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.item_id, account.id), eq(auditLog.action, "password-reset")));
    expect(entries).toHaveLength(1);
    // Who asked is not known (nobody is signed in): no account, the address it came from.
    expect(entries[0]).toMatchObject({ item_type: "staff", item_label: "asked@example.com", actor_id: null, ip: "192.0.2.60" });
    expect(JSON.stringify(entries[0])).not.toContain(token);
    // An address without an account: the same answer, and nothing recorded.
    await forgotFrom("nobody-at-all@example.com");
    expect(await db().select().from(auditLog).where(eq(auditLog.item_label, "nobody-at-all@example.com"))).toEqual([]);
  });
});

describe("the trail of one's own account", () => {
  it("step 1 of two-factor set-up is recorded (not a wrong password, never the key)", async () => {
    await createStaffAccount("starter@example.com", PASSWORD, "Stu", "editor");
    const account = await userRow("starter@example.com");
    const cookie = await signInAs("starter@example.com");
    const twoFactorEntries = () =>
      db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "two-factor"), eq(auditLog.item_label, "starter@example.com")));
    expect((await setup(cookie, { intent: "start", current: "not-the-password-1" })).status).toBe(400);
    expect(await twoFactorEntries()).toHaveLength(0);
    const started = await setup(cookie, { intent: "start", current: PASSWORD });
    expect(started.data?.step).toBe("confirm");
    const entries = await twoFactorEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_id: account.id,
      actor_label: "starter@example.com",
      item_type: "staff",
      item_id: account.id,
      ip: CLIENT_IP,
    });
    const secret = String(started.data?.secret).replace(/\s+/g, "");
    expect(JSON.stringify(entries[0])).not.toContain(secret);
  });

  it("a wrong current password on My account is recorded as a failed sign-in, and the one that reaches the limit as a lockout", async () => {
    await createStaffAccount("guesser@example.com", PASSWORD, "Gus", "editor");
    const account = await userRow("guesser@example.com");
    const cookie = await signInAs("guesser@example.com");
    const ctx = testContext("192.0.2.77");
    const guess = () =>
      callRoute<ActionAnswer>(
        accountRoute.action,
        post(
          "/dashboard/account",
          { intent: "password", current: "not-my-password-x", password: "a-moving-passphrase", confirm: "a-moving-passphrase" },
          cookie,
        ),
        {},
        ctx,
      );
    for (let i = 0; i < 5; i++) expect((await guess()).status).toBe(400);
    expect((await guess()).status).toBe(429);
    const entries = await db().select().from(auditLog).where(eq(auditLog.item_label, "guesser@example.com")).orderBy(auditLog.id);
    const failures = entries.filter((e) => e.action === "failed-sign-in");
    expect(failures).toHaveLength(5);
    for (const e of failures)
      expect(e).toMatchObject({
        actor_id: account.id,
        item_type: "session",
        item_id: account.id,
        ip: "192.0.2.77",
        changes: { reason: { after: "current password (My account)" } },
      });
    expect(entries.filter((e) => e.action === "lockout")).toMatchObject([{ actor_id: account.id, item_id: account.id, ip: "192.0.2.77" }]);
    expect(JSON.stringify(entries)).not.toContain("not-my-password-x");
  });
});

describe("Outbox: send again", () => {
  const resend = (id: number) =>
    callRoute<ActionAnswer>(
      outboxMessageRoute.action,
      post(`/dashboard/outbox/${id}`, { intent: "resend", id: String(id) }, owner),
      { id: String(id) },
      context,
    );
  const mailEntries = (id: number) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "mail"), eq(auditLog.item_id, String(id))));
  const status = async (id: number) =>
    (await db().select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, id)))[0].status;
  async function failedMessage(subject: string): Promise<number> {
    sink.smtp.refuse = true;
    try {
      const result = await sendMail({ to: "late-reader@example.com", subject, text: "t", html: "<p>t</p>", kind: "test" });
      expect(result.status).toBe("failed");
      return result.id;
    } finally {
      sink.smtp.refuse = false;
    }
  }

  it("the claim of the message and its trail entry are one transaction", async () => {
    const id = await failedMessage("Send again, once");
    const ownerRow = await userRow("owner@example.com");
    // The entry cannot be written (PostgreSQL refuses a NUL character): the message is not claimed, nor sent.
    await expect(resendMail(id, { userId: ownerRow.id, label: "broken\u0000actor", ip: "" })).rejects.toThrow();
    expect(await status(id)).toBe("failed");
    expect(await mailEntries(id)).toHaveLength(0);
    // The retry job took it first: nothing claimed, nothing recorded.
    await db().update(mailOutbox).set({ status: "sending" }).where(eq(mailOutbox.id, id));
    expect(await resendMail(id, { userId: ownerRow.id, label: "owner@example.com", ip: "" })).toBeUndefined();
    expect(await mailEntries(id)).toHaveLength(0);
    await db().update(mailOutbox).set({ status: "failed" }).where(eq(mailOutbox.id, id));
    // From the screen: sent, with one entry by the owner.
    const answer = await resend(id);
    expect(answer.status).toBe(302);
    expect(await flashOf(answer)).toBe("The message to late-reader@example.com has been sent.");
    expect(await mailEntries(id)).toMatchObject([
      { actor_id: ownerRow.id, actor_label: "owner@example.com", ip: CLIENT_IP, changes: { send: { after: "again" } } },
    ]);
  });

  it("pressed twice at once: one send and one entry; the other press is told", async () => {
    const id = await failedMessage("Send again, twice");
    const answers = await Promise.all([resend(id), resend(id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([302, 409]);
    expect(answers.find((a) => a.status === 409)!.data?.status?.text).toMatch(
      /^That message (is being sent right now|has already been sent)\.$/,
    );
    expect(await mailEntries(id)).toHaveLength(1);
    await sink.smtp.waitFor((m) => m.subject === "Send again, twice");
    expect(sink.smtp.messages.filter((m) => m.subject === "Send again, twice")).toHaveLength(1);
  });
});
