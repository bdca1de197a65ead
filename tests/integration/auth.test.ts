import { describe, expect, it, vi } from "vitest";
import { systemActor } from "~/.server/db/audit";
import { getStaff } from "~/.server/auth/staff-session";
import { createStaffAccount, resetStaffPassword } from "~/.server/auth/staff-accounts";
import { ensureAdminFromEnv } from "~/.server/http/startup";
import { LOCKED_MESSAGE } from "~/.server/auth/login-limits";
import { LOGIN_ERROR, signIn, signOut } from "~/.server/auth/sign-in";
import { setEnvForTests } from "~/.server/env";
import { db } from "~/.server/db/client";
import { auditLog, loginAttempts, session, user } from "~/.server/db/schema";
import { and, eq } from "drizzle-orm";
import { setUpTestDatabase } from "../support/database";
import { cookiesOf, signedIn as staffSignedIn } from "../support/staff-session";

setUpTestDatabase();

const req = (cookie?: string) => new Request("http://localhost:3000/dashboard", { headers: cookie ? { cookie } : {} });

describe("staff sign-in", () => {
  it("signs in with the right password, refuses a wrong one with the spec's message, and logout ends the session on the server", async () => {
    expect(await createStaffAccount("Staff@Example.com", "a-long-enough-password")).toBe(true);
    expect(await createStaffAccount("staff@example.com", "another-password-1")).toBe(false);

    const wrong = await signIn(req(), "staff@example.com", "wrong-password-123", "10.0.0.1");
    expect(wrong).toMatchObject({ ok: false, message: LOGIN_ERROR });
    const unknown = await signIn(req(), "nobody@example.com", "wrong-password-123", "10.0.0.1");
    expect(unknown).toMatchObject({ ok: false, message: LOGIN_ERROR });

    const ok = await signIn(req(), "staff@example.com", "a-long-enough-password", "10.0.0.1");
    expect(ok.ok).toBe(true);
    const cookie = cookiesOf((ok as { headers: Headers }).headers);
    expect((ok as { headers: Headers }).headers.getSetCookie().join()).toMatch(/HttpOnly/i);
    const staff = await getStaff(req(cookie));
    expect(staff?.email).toBe("staff@example.com");
    expect(staff?.role).toBe("owner");

    await signOut(req(cookie), staff!, "10.0.0.1");
    expect(await getStaff(req(cookie))).toBeNull();
  });

  it("locks an account after repeated failures, whether or not it exists, from rotating addresses", async () => {
    for (let i = 0; i < 5; i++) await signIn(req(), "ghost@example.com", "bad-password-xyz", `10.1.0.${i}`);
    const sixth = await signIn(req(), "ghost@example.com", "bad-password-xyz", "10.1.0.99");
    expect(sixth).toMatchObject({ ok: false, message: LOCKED_MESSAGE, status: 429 });
  });

  it("refuses the 101st failure for one account within an hour, from any address", async () => {
    const at = new Date(Date.now() - 20 * 60 * 1000); // outside the 15-minute window
    const rows = (n: number, email: string) =>
      Array.from({ length: n }, (_, i) => ({ email, ip: `172.16.${i >> 8}.${i & 255}`, success: false, at }));
    await db().insert(loginAttempts).values(rows(99, "hourly@example.com"));
    expect(await signIn(req(), "hourly@example.com", "bad-password-xyz", "192.0.2.1")).toMatchObject({ message: LOGIN_ERROR });
    // That was the 100th failure in the hour: the next one is refused, even from a new address.
    expect(await signIn(req(), "hourly@example.com", "bad-password-xyz", "192.0.2.2")).toMatchObject({
      message: LOCKED_MESSAGE,
      status: 429,
    });
  });

  it("refuses an address after many failures across accounts", async () => {
    for (let i = 0; i < 30; i++)
      await db()
        .insert(loginAttempts)
        .values({ email: `spray${i}@example.com`, ip: "198.51.100.7", success: false });
    expect(await signIn(req(), "someone-new@example.com", "bad-password-xyz", "198.51.100.7")).toMatchObject({ message: LOCKED_MESSAGE });
    expect(await signIn(req(), "someone-new@example.com", "bad-password-xyz", "198.51.100.8")).toMatchObject({ message: LOGIN_ERROR });
  });

  it("a password reset ends existing sessions", async () => {
    await createStaffAccount("reset@example.com", "first-password-123");
    const ok = await signIn(req(), "reset@example.com", "first-password-123", "10.2.0.1");
    const cookie = cookiesOf((ok as { headers: Headers }).headers);
    expect(await getStaff(req(cookie))).not.toBeNull();
    expect(await resetStaffPassword("reset@example.com", "second-password-456")).toBe(true);
    expect(await getStaff(req(cookie))).toBeNull();
    expect((await signIn(req(), "reset@example.com", "second-password-456", "10.2.0.1")).ok).toBe(true);
  });
});

describe("staff account at start-up", () => {
  it("is created once when two server processes start at the same time", async () => {
    const results = await Promise.all([
      createStaffAccount("twice@example.com", "a-long-enough-password"),
      createStaffAccount("twice@example.com", "a-long-enough-password"),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect((await signIn(req(), "twice@example.com", "a-long-enough-password", "10.5.0.1")).ok).toBe(true);
    // One account, one entry: the refused second creation left nothing in the trail.
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "create"), eq(auditLog.item_label, "twice@example.com"))),
    ).toHaveLength(1);
  });

  it("ADMIN_EMAIL at start-up is recorded in the audit trail, by the system", async () => {
    const env = setEnvForTests({ ADMIN_EMAIL: "first-owner@example.com", ADMIN_PASSWORD: "a-long-enough-password" });
    try {
      await ensureAdminFromEnv(env);
      await ensureAdminFromEnv(env);
    } finally {
      setEnvForTests({ ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
    }
    const [account] = await db().select().from(user).where(eq(user.email, "first-owner@example.com"));
    const entries = await db().select().from(auditLog).where(eq(auditLog.item_label, "first-owner@example.com"));
    // Created once (the second start-up finds it), with the role, and never the password.
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "create",
      item_type: "staff",
      item_id: account.id,
      actor_id: null,
      actor_label: "ADMIN_EMAIL at start-up",
    });
    expect(entries[0].changes).toEqual({ role: { after: "owner" }, status: { after: "active" }, password: { hidden: true } });
    expect(JSON.stringify(entries[0])).not.toContain("a-long-enough-password");
  });
});

describe("staff accounts made or reset on the server (admin:create, admin:password)", () => {
  const trail = (email: string) => db().select().from(auditLog).where(eq(auditLog.item_label, email)).orderBy(auditLog.id);

  it("records the creation and the password reset with the system actor that did it", async () => {
    expect(await createStaffAccount("cli@example.com", "first-password-123", "Staff", "admin", systemActor("npm run admin:create"))).toBe(
      true,
    );
    const ok = await signIn(req(), "cli@example.com", "first-password-123", "10.6.0.1");
    expect(ok.ok).toBe(true);
    expect(await resetStaffPassword("CLI@example.com", "second-password-456", systemActor("npm run admin:password"))).toBe(true);
    const [account] = await db().select().from(user).where(eq(user.email, "cli@example.com"));
    const entries = (await trail("cli@example.com")).filter((e) => e.action !== "sign-in");
    expect(entries.map((e) => [e.action, e.actor_label, e.actor_id, e.item_id])).toEqual([
      ["create", "npm run admin:create", null, account.id],
      ["password-reset", "npm run admin:password", null, account.id],
    ]);
    expect(entries[0].changes).toMatchObject({ role: { after: "admin" } });
    expect(entries[1].changes).toEqual({ password: { hidden: true }, sessions_ended: { after: 1 } });
    expect(JSON.stringify(entries)).not.toMatch(/first-password|second-password/);
  });

  it("writes the account and its entry in one transaction: when the entry cannot be written, nothing is kept", async () => {
    // PostgreSQL refuses a NUL character in text: the entry's insert fails inside the transaction.
    const broken = systemActor("broken\u0000actor");
    await expect(createStaffAccount("half@example.com", "a-long-enough-password", "Staff", "editor", broken)).rejects.toThrow();
    expect(await db().select().from(user).where(eq(user.email, "half@example.com"))).toEqual([]);
    expect(await trail("half@example.com")).toEqual([]);

    await createStaffAccount("kept@example.com", "first-password-123");
    const ok = await signIn(req(), "kept@example.com", "first-password-123", "10.6.0.2");
    const cookie = cookiesOf((ok as { headers: Headers }).headers);
    await expect(resetStaffPassword("kept@example.com", "second-password-456", broken)).rejects.toThrow();
    // The password and the session are as they were.
    expect(await getStaff(req(cookie))).not.toBeNull();
    expect((await signIn(req(), "kept@example.com", "first-password-123", "10.6.0.2")).ok).toBe(true);
    expect((await trail("kept@example.com")).map((e) => e.action)).not.toContain("password-reset");
  });
});

describe("session lifetime", () => {
  /** A signed-in account's Cookie header and its session token (the row in `session`). */
  async function signedIn(email: string) {
    const cookie = await staffSignedIn(email, "owner", "10.4.0.1");
    const token = /session_token=([^.;]+)/.exec(cookie)![1];
    return { cookie, token };
  }

  it("lasts 30 minutes from the last activity", async () => {
    const { cookie, token } = await signedIn("idle@example.com");
    const [row] = await db().select().from(session).where(eq(session.token, token));
    const minutes = (new Date(row.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(28);
    expect(minutes).toBeLessThanOrEqual(30.1);
    // Active again 20 minutes later: the 30 minutes start over.
    await db()
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 10 * 60_000) })
      .where(eq(session.token, token));
    expect(await getStaff(req(cookie))).not.toBeNull();
    const [refreshed] = await db().select().from(session).where(eq(session.token, token));
    expect((new Date(refreshed.expiresAt).getTime() - Date.now()) / 60_000).toBeGreaterThan(28);
    // Idle past its expiry: refused.
    await db()
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.token, token));
    expect(await getStaff(req(cookie))).toBeNull();
  });

  it("ends after 12 hours however active, and is removed on the server", async () => {
    const { cookie, token } = await signedIn("absolute@example.com");
    await db()
      .update(session)
      .set({ createdAt: new Date(Date.now() - 12 * 3600_000 - 60_000) })
      .where(eq(session.token, token));
    expect(await getStaff(req(cookie))).toBeNull();
    expect(await db().select().from(session).where(eq(session.token, token))).toEqual([]);
  });
});

describe("session cookie in production", () => {
  it("is Secure, HttpOnly and SameSite=Lax when the site is served over https", async () => {
    const before = process.env.DATA_DIR;
    setEnvForTests({
      PUBLIC_URL: "https://www.example.com",
      AUTH_SECRET: "s".repeat(40),
      NODE_ENV: "production",
      DATA_DIR: before,
      PASSWORD_HASH_COST: "standard",
    });
    try {
      await createStaffAccount("https@example.com", "a-long-enough-password");
      const ok = await signIn(req(), "https@example.com", "a-long-enough-password", "10.3.0.1");
      const cookie = (ok as { headers: Headers }).headers.getSetCookie().find((c) => c.includes("session_token"))!;
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      expect(cookie).not.toMatch(/Max-Age=[1-9]\d{6,}/); // not a long-lived "remember me" cookie
    } finally {
      setEnvForTests({ PUBLIC_URL: "", AUTH_SECRET: "", NODE_ENV: "test", PASSWORD_HASH_COST: "test" });
    }
  });
  it("a later start without ADMIN_EMAIL does not say that no staff account is configured while an owner exists", async () => {
    await createStaffAccount("standing-owner@example.com", "a-long-enough-password", "Owner", "owner");
    const env = setEnvForTests({ ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
    const out: string[] = [];
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "info";
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => (out.push(String(chunk)), true));
    try {
      await ensureAdminFromEnv(env);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the log's batch is written on a later turn
    } finally {
      write.mockRestore();
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
    }
    const text = out.join("");
    expect(text).not.toContain("no staff account configured");
    const line = JSON.parse(text.split("\n").find((l) => l.includes("staff accounts ready"))!) as { owners: number };
    expect(line.owners).toBeGreaterThanOrEqual(1);
  });
});
