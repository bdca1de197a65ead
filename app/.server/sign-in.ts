/** Staff sign-in and sign-out through better-auth, behind the database-kept limits. */
import { APIError } from "better-auth/api";
import { authHeaders, getAuth } from "./auth";
import { log } from "./log";
import { normaliseEmail, recordSignIn, signInBlocked } from "./login-limits";

export const LOGIN_ERROR = "An error occurred during login. Please contact your site administrator.";
export const LOGOUT_ERROR = "An error occurred during logout. Please contact your site administrator.";

export type SignInResult = { ok: true; headers: Headers } | { ok: false; message: string; status: number };

export async function signIn(request: Request, email: string, password: string, ip: string): Promise<SignInResult> {
  try {
    return await attemptSignIn(request, email, password, ip);
  } catch (error) {
    // The database is unreachable (or another fault): the spec's failure message, the form kept, 503.
    log("error", "sign-in unavailable", { email: normaliseEmail(email), ip, error: (error as Error).message });
    return { ok: false, message: LOGIN_ERROR, status: 503 };
  }
}

async function attemptSignIn(request: Request, email: string, password: string, ip: string): Promise<SignInResult> {
  const key = normaliseEmail(email);
  const blocked = await signInBlocked(key, ip);
  if (blocked) {
    log("warn", "sign-in refused (limit)", { email: key, ip });
    return { ok: false, message: blocked, status: 429 };
  }
  try {
    const headers = authHeaders(request);
    // A fresh session id at every sign-in: any session cookie sent along is ignored.
    headers.delete("cookie");
    const { headers: responseHeaders } = await getAuth().api.signInEmail({
      // rememberMe keeps the 30-minute expiry (refreshed while active) on the server; without it better-auth makes a 1-day session.
      body: { email: key, password, rememberMe: true },
      headers,
      returnHeaders: true,
    });
    await recordSignIn(key, ip, true);
    log("info", "sign-in succeeded", { email: key, ip });
    return { ok: true, headers: responseHeaders };
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    await recordSignIn(key, ip, false);
    log("warn", "sign-in failed", { email: key, ip, reason: error.body?.code ?? error.status });
    return { ok: false, message: LOGIN_ERROR, status: 401 };
  }
}

/** Ends the session on the server; returns headers that clear the cookie. */
export async function signOut(request: Request): Promise<Headers> {
  const { headers } = await getAuth().api.signOut({ headers: authHeaders(request), returnHeaders: true });
  return headers;
}
