/** /logout: a POST ends the session on the server and returns to "/". A GET signs nobody out. */
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { getStaff } from "~/.server/auth/staff-session";
import { flashHeaders } from "~/.server/admin/flash.server";
import { log } from "~/.server/log";
import { signOut } from "~/.server/auth/sign-in";
import { MSG } from "~/lib/forms/messages";
import { requestInfo, servicesContext } from "~/.server/http/request-context";

export function loader() {
  return redirect("/dashboard");
}

export async function action({ request, context }: Route.ActionArgs) {
  try {
    const staff = await getStaff(request, context.get(servicesContext));
    if (!staff) return redirect("/");
    const headers = await signOut(request, staff, requestInfo(context).clientIp);
    const out = new Headers();
    for (const cookie of headers.getSetCookie()) out.append("Set-Cookie", cookie);
    return redirect("/", { headers: out });
  } catch (error) {
    log("error", "sign-out failed", { error: (error as Error).message });
    return redirect("/dashboard", { headers: await flashHeaders({ tone: "error", text: MSG.logoutError }) });
  }
}
