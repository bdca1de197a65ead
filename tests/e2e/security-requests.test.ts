/**
 * Over HTTP on the built server: state-changing requests from another site are
 * refused (403) and write nothing; sign-in is logged without secrets; a
 * signed-in session gets a fresh id at each sign-in.
 */
import { describe, expect, it, ownServer } from "./fixture";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./support";

const server = ownServer({ env: { LOG_LEVEL: "info" } });

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function signIn(origin = server.url) {
  const res = await fetch(`${server.url}/admin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: form({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { res, cookie };
}

describe("requests from another site", () => {
  it("are refused with 403 for sign-in, saves and logout, and change nothing", async () => {
    const { cookie } = await signIn();
    expect(cookie).toMatch(/session_token=/);
    for (const [path, body] of [
      ["/admin", form({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD })],
      ["/dashboard/hours/edit", form({ start_time: "1:00", end_time: "2:00" })],
      ["/logout", ""],
    ] as const) {
      const foreign: Record<string, string>[] = [
        { origin: "https://evil.example" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site" },
      ];
      for (const headers of foreign) {
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
          body,
        });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    }
    // Still signed in (the cross-site logout did nothing), hours unchanged.
    const after = await fetch(`${server.url}/dashboard/hours/edit`, { headers: { cookie }, redirect: "manual" });
    expect(after.status).toBe(200);
    expect(await (await fetch(`${server.url}/`)).text()).toContain("9:00 to 5:00");
  });
});

describe("sign-in", () => {
  it("issues a new session id at every sign-in and logs successes and failures without secrets", async () => {
    const first = await signIn();
    const second = await signIn();
    const token = (c: string) => /session_token=([^;]+)/.exec(c)?.[1];
    expect(token(first.cookie)).toBeTruthy();
    expect(token(second.cookie)).not.toBe(token(first.cookie));
    await fetch(`${server.url}/admin`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: form({ email: ADMIN_EMAIL, password: "Wrong-Password-Secret-123" }),
    });
    await new Promise((r) => setTimeout(r, 300)); // logs are flushed once per event-loop turn
    const log = server.output();
    expect(log).toMatch(/"msg":"sign-in succeeded","email":"staff@example.com"/);
    expect(log).toMatch(/"msg":"sign-in failed","email":"staff@example.com"/);
    for (const secret of [ADMIN_PASSWORD, "Wrong-Password-Secret-123", token(first.cookie)!, token(second.cookie)!]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/cookie|set-cookie/i);
  });
});
