/**
 * One-time status messages after a redirect ("… has been added
 * successfully"), kept in a small signed cookie and cleared when shown.
 */
import { createCookieSessionStorage, type SessionStorage } from "react-router";
import type { Status } from "~/lib/forms/messages";
import { getEnv } from "../env";
import { processServices } from "../services";

/** The cookie's storage, kept in the process's services for the environment it was made for. */
function storage(): SessionStorage {
  const env = getEnv();
  const services = processServices();
  if (!services.flash || services.flash.env !== env) {
    services.flash = {
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
  return services.flash.storage;
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
