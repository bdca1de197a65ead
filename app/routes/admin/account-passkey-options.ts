/** /dashboard/account/passkey-options: options for the browser's prompt to add a passkey to one's own account (JSON, never stored). */
import type { Route } from "./+types/account-passkey-options";
import { passkeyRegistrationOptions } from "~/.server/admin/account.server";
import { log } from "~/.server/log";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "signed-in" } satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  try {
    const { options, headers } = await passkeyRegistrationOptions(request);
    headers.set("Cache-Control", "private, no-store");
    return Response.json(options, { headers });
  } catch (error) {
    log("error", "passkey options unavailable", { error: (error as Error).message });
    return Response.json(
      { error: "Passkeys are briefly unavailable. Please try again in a moment." },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
}
