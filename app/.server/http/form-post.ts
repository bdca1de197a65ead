/** Reading form posts safely (the dashboard's and the public forms'): a size cap before parsing, and 400 (not 500) for a body that cannot be read. */
import { data } from "react-router";
import { MSG, type Status } from "~/lib/forms/messages";
import { MAX_UPLOAD_BYTES } from "../pictures/images";

/** A picture of at most 10 MB plus the rest of the form. */
export const MAX_FORM_BYTES = MAX_UPLOAD_BYTES + 2 * 1024 * 1024;
/** Forms without a picture. */
export const MAX_TEXT_FORM_BYTES = 1024 * 1024;

export type FailureData = { status?: Status; errors?: Record<string, string>; values?: unknown };

/** A refused request's answer: `data(…, { status })` with the message, as React Router sends it. */
export type Refusal = ReturnType<typeof data<FailureData>>;

/** The answers made by `refuse`, so `isRefusal` knows them without looking inside React Router's objects. */
const refusals = new WeakSet<object>();

/** A refused request's answer with the form's message (`isRefusal` knows it). */
export function refuse(status: number, text: string): Refusal {
  const answer = data<FailureData>({ status: { tone: "error", text } }, { status });
  refusals.add(answer);
  return answer;
}

/** True for an answer to return as it is (a refused request), false for the form or the actor. */
export function isRefusal<T extends object>(value: T | Refusal): value is Refusal {
  return refusals.has(value);
}

/**
 * The posted form, read with a byte cap (Content-Length first, then while
 * streaming, for chunked bodies); otherwise a 413 (`tooLarge`, by default
 * the picture form's message) or 400 answer to return.
 */
export async function readForm(
  request: Request,
  maxBytes = MAX_TEXT_FORM_BYTES,
  tooLarge: string = MSG.tooLarge,
): Promise<FormData | Refusal> {
  try {
    return await readFormOrThrow(request, maxBytes, tooLarge);
  } catch (error) {
    if (error instanceof FormData) return error;
    if (error !== null && typeof error === "object" && refusals.has(error)) return error as Refusal;
    return refuse(400, MSG.unreadableForm);
  }
}

async function readFormOrThrow(request: Request, maxBytes: number, tooLarge: string): Promise<FormData> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) throw refuse(413, tooLarge);
  const type = request.headers.get("content-type") ?? "";
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) throw refuse(400, MSG.unreadableForm);
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw refuse(413, tooLarge);
      }
      chunks.push(value);
    }
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  try {
    return await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw refuse(400, MSG.unreadableForm);
  }
}

/** A positive database id from a form or URL value, or null. */
export function parseId(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d{1,9}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/** The uploaded file of a field, or null when none was chosen. */
export function uploadedFile(form: FormData, name: string): File | null {
  const value = form.get(name);
  if (!value || typeof value === "string" || value.size === 0) return null;
  return value;
}
