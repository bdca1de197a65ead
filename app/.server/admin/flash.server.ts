/**
 * One-time status messages after a redirect ("… has been added
 * successfully"), kept in a small signed cookie and cleared when shown.
 */
import { createCookieSessionStorage, type SessionStorage } from "react-router";
import type { Status } from "~/lib/forms/messages";
import { getEnv } from "../env";

const holder = globalThis as unknown as { __firmFlash?: { storage: SessionStorage; env: unknown } };

function storage(): SessionStorage {
  const env = getEnv();
  if (!holder.__firmFlash || holder.__firmFlash.env !== env) {
    holder.__firmFlash = {
      env,
      storage: createCookieSessionStorage({
        cookie: {
          name: "firm_flash",
          httpOnly: true,
          sameSite: "lax",
          path: "/",
          secure: env.publicUrl.startsWith("https://"),
          secrets: [env.authSecret],
          maxAge: 120,
        },
      }),
    };
  }
  return holder.__firmFlash.storage;
}

/** Headers for a redirect that shows `status` on the next page. */
export async function flashHeaders(status: Status): Promise<Headers> {
  const s = storage();
  const session = await s.getSession();
  session.flash("status", status);
  return new Headers({ "Set-Cookie": await s.commitSession(session) });
}

/** The pending message (if any) and the header that clears it. */
export async function readFlash(request: Request): Promise<{ status: Status | null; headers: Headers }> {
  const headers = new Headers();
  const cookie = request.headers.get("cookie");
  if (!cookie?.includes("firm_flash=")) return { status: null, headers };
  const s = storage();
  const session = await s.getSession(cookie);
  const value = session.get("status") as Status | undefined;
  headers.set("Set-Cookie", await s.destroySession(session));
  if (!value || typeof value.text !== "string" || (value.tone !== "success" && value.tone !== "error")) return { status: null, headers };
  return { status: { tone: value.tone, text: value.text }, headers };
}
