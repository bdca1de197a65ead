/**
 * /admin/passkey: the options for the browser's passkey prompt at sign-in
 * (better-auth's passkey plugin through auth.api; its challenge is kept
 * server-side, named by a signed cookie set here). JSON, never stored.
 */
import type { Route } from "./+types/passkey-options";
import { log } from "~/.server/log";
import { passkeySignInOptions } from "~/.server/auth/sign-in";

export async function loader({ request }: Route.LoaderArgs) {
  try {
    const { options, headers } = await passkeySignInOptions(request);
    const out = new Headers({ "Cache-Control": "private, no-store" });
    for (const cookie of headers.getSetCookie()) out.append("Set-Cookie", cookie);
    return Response.json(options, { headers: out });
  } catch (error) {
    log("error", "passkey options unavailable", { error: (error as Error).message });
    return Response.json(
      { error: "Sign-in is temporarily unavailable. Please try again in a moment." },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
}
