/**
 * One's own account: two-factor sign-in and passkeys through better-auth's
 * plugins (called through auth.api with the person's own session cookie), each
 * change recorded in the audit trail in the same transaction as the plugin's
 * own writes (`withAuthTransaction`).
 */
import { APIError } from "better-auth/api";
import QRCode from "qrcode";
import { FIRM } from "~/config/firm";
import { recordAudit, type Actor, type AuditAction, type Changes } from "../db/audit";
import { authHeaders, getAuth, withAuthTransaction } from "../auth/auth";
import { type StaffSession } from "../auth/staff-session";
import { noteSessionAddress } from "../db/staff-sessions";
import type { Db } from "../db/client";

export const TWO_FACTOR_MSG = {
  wrongPassword: "The current password is not correct.",
  wrongCode: "That code is not correct. Type the 6-digit code your authenticator app shows now (codes change every 30 seconds).",
  started: "Scan the QR code with your authenticator app (or type the key), then type the 6-digit code it shows.",
  enabled: "Two-factor sign-in is on. Keep your recovery codes somewhere safe: they are shown only now.",
  disabled: "Two-factor sign-in is off.",
  requiredOn: "Two-factor sign-in is required on this site, so it cannot be turned off.",
  newCodes: "Here are your new recovery codes; the old ones no longer work. They are shown only now.",
  alreadyOn: "Two-factor sign-in is already on.",
  restart: "The set-up has expired or was not started. Start again with your current password.",
} as const;

function setCookies(from: Headers): Headers {
  const out = new Headers();
  for (const cookie of from.getSetCookie()) out.append("Set-Cookie", cookie);
  return out;
}

/** The key of an otpauth:// URI, in groups of four for typing. */
export function secretOf(uri: string): string {
  try {
    const secret = new URL(uri).searchParams.get("secret") ?? "";
    return secret.replace(/(.{4})/g, "$1 ").trim();
  } catch {
    return "";
  }
}

export async function qrDataUrl(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { margin: 2, width: 240, errorCorrectionLevel: "M" });
}

function isWrongPassword(error: unknown) {
  return error instanceof APIError && /INVALID_PASSWORD|PASSWORD/.test(String(error.body?.code ?? ""));
}

class NoTwoFactorKey extends Error {}

/** A change to one's own sign-in (two-factor, recovery codes, passkeys) in the audit trail: the account is the item. */
function recordOwnChange(tx: Db, actor: Actor, staff: StaffSession, action: AuditAction, changes: Changes) {
  return recordAudit(tx, actor, { action, itemType: "staff", itemId: staff.userId, itemLabel: staff.email, changes });
}

/** Step 1 of setting up: the password checked, a secret made (not in use until confirmed), recorded with it. */
export async function startTwoFactor(
  request: Request,
  staff: StaffSession,
  actor: Actor,
  password: string,
): Promise<{ ok: true; uri: string } | { ok: false; message: string; field?: string }> {
  try {
    const uri = await withAuthTransaction(async (tx) => {
      const result = await getAuth().api.enableTwoFactor({ body: { password, issuer: FIRM.name }, headers: authHeaders(request) });
      const uri = (result as { totpURI?: string }).totpURI;
      // No key to show: nothing of it is kept (no change without its entry).
      if (!uri) throw new NoTwoFactorKey();
      await recordOwnChange(tx, actor, staff, "two-factor", {
        two_factor: { after: "set-up started (not on until confirmed with a code)" },
      });
      return uri;
    });
    return { ok: true, uri };
  } catch (error) {
    if (error instanceof NoTwoFactorKey) return { ok: false, message: TWO_FACTOR_MSG.restart };
    if (isWrongPassword(error)) return { ok: false, message: TWO_FACTOR_MSG.wrongPassword, field: "current" };
    if (error instanceof APIError && /ALREADY/.test(String(error.body?.code ?? "")))
      return { ok: false, message: TWO_FACTOR_MSG.alreadyOn };
    throw error;
  }
}

/** Step 2: the first code confirms it; returns the 10 recovery codes (shown once) and the rotated session cookie. */
export async function confirmTwoFactor(
  request: Request,
  staff: StaffSession,
  actor: Actor,
  code: string,
): Promise<{ ok: true; codes: string[]; headers: Headers } | { ok: false; message: string }> {
  let result, codes;
  try {
    ({ result, codes } = await withAuthTransaction(async (tx) => {
      const result = await getAuth().api.verifyTOTP({
        body: { code: code.replace(/\s+/g, "") },
        headers: authHeaders(request),
        returnHeaders: true,
      });
      const codes = await getAuth().api.viewBackupCodes({ body: { userId: staff.userId } });
      await recordOwnChange(tx, actor, staff, "two-factor", { two_factor: { before: "off", after: "on" } });
      return { result, codes };
    }));
  } catch (error) {
    if (error instanceof APIError && /INVALID_CODE|INVALID/.test(String(error.body?.code ?? "")))
      return { ok: false, message: TWO_FACTOR_MSG.wrongCode };
    if (error instanceof APIError && /NOT_ENABLED/.test(String(error.body?.code ?? "")))
      return { ok: false, message: TWO_FACTOR_MSG.restart };
    throw error;
  }
  const token = (result.response as { token?: string }).token;
  if (token) await noteSessionAddress(token, actor.ip);
  for (const cookie of result.headers.getSetCookie()) {
    const m = /^firm\.session_token=([^.;]+)/.exec(cookie);
    if (m?.[1]) await noteSessionAddress(decodeURIComponent(m[1]), actor.ip);
  }
  return { ok: true, codes: (codes as { backupCodes?: string[] }).backupCodes ?? [], headers: setCookies(result.headers) };
}

export async function disableTwoFactor(request: Request, staff: StaffSession, actor: Actor, password: string) {
  try {
    const result = await withAuthTransaction(async (tx) => {
      const result = await getAuth().api.disableTwoFactor({ body: { password }, headers: authHeaders(request), returnHeaders: true });
      await recordOwnChange(tx, actor, staff, "two-factor", { two_factor: { before: "on", after: "off" } });
      return result;
    });
    return { ok: true as const, headers: setCookies(result.headers) };
  } catch (error) {
    if (isWrongPassword(error)) return { ok: false as const, message: TWO_FACTOR_MSG.wrongPassword };
    throw error;
  }
}

export async function newRecoveryCodes(request: Request, staff: StaffSession, actor: Actor, password: string) {
  try {
    const result = await withAuthTransaction(async (tx) => {
      const result = await getAuth().api.generateBackupCodes({ body: { password }, headers: authHeaders(request) });
      await recordOwnChange(tx, actor, staff, "two-factor", { recovery_codes: { after: "replaced" } });
      return result;
    });
    return { ok: true as const, codes: (result as { backupCodes?: string[] }).backupCodes ?? [] };
  } catch (error) {
    if (isWrongPassword(error)) return { ok: false as const, message: TWO_FACTOR_MSG.wrongPassword };
    throw error;
  }
}

// ---------- passkeys ----------

export type PasskeyRow = { id: string; name: string; createdAt: string | null };

export async function listPasskeys(request: Request): Promise<PasskeyRow[]> {
  const rows = (await getAuth().api.listPasskeys({ headers: authHeaders(request) })) as {
    id: string;
    name?: string | null;
    createdAt?: Date | string | null;
  }[];
  return rows.map((p) => ({ id: p.id, name: p.name || "Passkey", createdAt: p.createdAt ? new Date(p.createdAt).toISOString() : null }));
}

export async function passkeyRegistrationOptions(request: Request): Promise<{ options: unknown; headers: Headers }> {
  const result = await getAuth().api.generatePasskeyRegistrationOptions({ headers: authHeaders(request), query: {}, returnHeaders: true });
  return { options: result.response, headers: setCookies(result.headers) };
}

export async function addPasskey(request: Request, staff: StaffSession, actor: Actor, response: Record<string, unknown>, name: string) {
  try {
    await withAuthTransaction(async (tx) => {
      await getAuth().api.verifyPasskeyRegistration({ body: { response, name }, headers: authHeaders(request) });
      await recordOwnChange(tx, actor, staff, "passkey", { passkey: { after: `added: ${name}` } });
    });
  } catch (error) {
    if (error instanceof APIError) return false;
    throw error;
  }
  return true;
}

export async function removePasskey(request: Request, staff: StaffSession, actor: Actor, id: string) {
  const mine = await listPasskeys(request);
  const found = mine.find((p) => p.id === id);
  if (!found) return false;
  await withAuthTransaction(async (tx) => {
    await getAuth().api.deletePasskey({ body: { id }, headers: authHeaders(request) });
    await recordOwnChange(tx, actor, staff, "passkey", { passkey: { before: found.name, after: "removed" } });
  });
  return true;
}
