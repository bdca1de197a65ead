/**
 * The article editor's two JSON routes (issue 12) and the article forms'
 * handling of an ended session:
 * - POST /dashboard/articles/pictures: a picture for the article body (the
 *   article picture pipeline, images.ts) with its alt text, required;
 * - POST /dashboard/articles/autosave: the form's working copy kept (or
 *   discarded) per person and article (db/autosaves.ts).
 * Both start with actorOf like every dashboard action and answer JSON,
 * `{ error, errors? }` with 400/401/403/404/413/503 when refused (never a 500).
 */
import { formText } from "~/lib/forms/form-data";
import type { RequestContext } from "../http/request-context";
import { data } from "react-router";
import { BODY_PICTURE_TEXT, bodyPictureSrc, checkAlt } from "~/lib/body-pictures";
import { AUTOSAVE_TEXT, autosaveValuesSchema, MAX_AUTOSAVE_BYTES, type DraftValues, type KeptDraftData } from "~/lib/forms/autosave";
import { MSG, type Status } from "~/lib/forms/messages";
import { deleteAutosave, getAutosave, saveAutosave } from "../db/autosaves";
import { getArticleById } from "../db/articles";
import { ImageRejected, saveBodyPicture } from "../pictures/images";
import { log } from "../log";
import { sanitizeArticleHtml } from "../content/sanitize";
import { StorageUnavailable } from "../storage/storage";
import { actorOf } from "./guard.server";
import { isRefusal, MAX_FORM_BYTES, parseId, readForm, uploadedFile, type Refusal } from "../http/form-post";
import { bodyHtml, formVersion } from "./articles.server";
import type { Actor } from "../db/audit";

const NO_STORE = { "Cache-Control": "private, no-store" };

function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** A refusal of readForm or actorOf (413, 400, 503) as JSON. */
function refusalJson(refusal: Refusal) {
  const text = (refusal.data as { status?: Status }).status?.text ?? MSG.updateError;
  return json({ error: text }, refusal.init?.status ?? 400);
}

/** actorOf for a JSON route: the Actor, or the refusal (401, 503) as JSON instead of an error page. */
async function jsonActor(context: RequestContext, failure: string): Promise<Actor | Response> {
  try {
    const actor = actorOf(context, failure);
    return isRefusal(actor) ? refusalJson(actor) : actor;
  } catch (error) {
    if (error instanceof Response && (error.status === 401 || error.status === 403)) {
      return json({ error: (await error.text()) || AUTOSAVE_TEXT.sessionEnded }, error.status);
    }
    throw error;
  }
}

/** The loaders of the JSON routes: the session checked (no session: to /admin), then 405. */
export function postOnly() {
  return json({ error: "Send this with POST." }, 405, { Allow: "POST" });
}

export async function bodyPictureAction(request: Request, context: RequestContext): Promise<Response> {
  const actor = await jsonActor(context, MSG.imageUploadError);
  if (actor instanceof Response) return actor;
  const form = await readForm(request, MAX_FORM_BYTES);
  if (isRefusal(form)) return refusalJson(form);
  const file = uploadedFile(form, "picture");
  const alt = checkAlt(form.get("alt"));
  const errors: Record<string, string> = {};
  if (!file) errors.picture = BODY_PICTURE_TEXT.fileRequired;
  if (!alt.ok) errors.alt = alt.message;
  if (!file || !alt.ok) return json({ error: MSG.checkFields, errors }, 400);
  try {
    const saved = await saveBodyPicture(new Uint8Array(await file.arrayBuffer()));
    log("info", "article body picture stored", { name: saved.name, by: actor.label });
    return json({ src: bodyPictureSrc(saved.name), alt: alt.alt, width: saved.width, height: saved.height });
  } catch (error) {
    if (error instanceof ImageRejected) return json({ error: MSG.imageUploadError, errors: { picture: error.message } }, 400);
    log("error", "article body picture not saved", { error: (error as Error).message });
    // The store does not answer (or something unforeseen): try again later; nothing typed is lost.
    const message = error instanceof StorageUnavailable ? MSG.pictureStoreDown : MSG.imageUploadError;
    return json({ error: message, errors: { picture: message } }, 503, { "Retry-After": "10" });
  }
}

/** "new" (the new-article form) or an article id; undefined when neither. */
function slotOf(value: FormDataEntryValue | null): number | null | undefined {
  if (value === "new") return null;
  return parseId(value) ?? undefined;
}

/** A working copy's body as the editor will get it back: sanitised like a saved one. */
function cleanDraft(values: DraftValues): DraftValues {
  const copy = values.copy;
  return typeof copy === "string" && copy.trim() ? { ...values, copy: sanitizeArticleHtml(bodyHtml(copy)) } : values;
}

export async function autosaveAction(request: Request, context: RequestContext): Promise<Response> {
  const actor = await jsonActor(context, AUTOSAVE_TEXT.unavailable);
  if (actor instanceof Response) return actor;
  const form = await readForm(request, MAX_AUTOSAVE_BYTES);
  if (isRefusal(form)) return refusalJson(form);
  const intent = form.get("intent");
  const articleId = slotOf(form.get("article"));
  if ((intent !== "save" && intent !== "discard") || articleId === undefined) return json({ error: MSG.unreadableForm }, 400);
  try {
    if (articleId !== null && !(await getArticleById(articleId))) return json({ error: AUTOSAVE_TEXT.notFound }, 404);
    if (intent === "discard") {
      await deleteAutosave(actor.userId!, articleId);
      return json({ discarded: true });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(formText(form, "values"));
    } catch {
      raw = undefined;
    }
    const parsed = autosaveValuesSchema.safeParse(raw);
    if (!parsed.success) return json({ error: MSG.unreadableForm }, 400);
    const savedAt = await saveAutosave(
      actor.userId!,
      articleId,
      cleanDraft(parsed.data),
      articleId === null ? null : (formVersion(form.get("version")) ?? null),
    );
    return json({ savedAt: savedAt.toISOString() });
  } catch (error) {
    log("error", "article draft not kept", { article: articleId, error: (error as Error).message });
    return json({ error: AUTOSAVE_TEXT.unavailable }, 503, { "Retry-After": "10" });
  }
}

export async function keptDraftFor(userId: string, articleId: number | null): Promise<KeptDraftData> {
  try {
    const found = await getAutosave(userId, articleId);
    return {
      userId,
      autosave: found ? { values: cleanDraft(found.values), baseVersion: found.baseVersion, savedAt: found.savedAt.toISOString() } : null,
    };
  } catch (error) {
    // The form opens without it; the copy kept in the browser still comes back.
    log("warn", "article draft not read", { article: articleId, error: (error as Error).message });
    return { userId, autosave: null };
  }
}

export type SessionEndedData = { status: Status; sessionEnded: true; values?: undefined; errors?: undefined };

/**
 * The article forms' actions: a save whose session has ended answers 401 with
 * the status message (requireStaff's words) instead of the error page, so the
 * form stays as typed; the form keeps a copy in the browser and offers to
 * sign in again (components/admin/kept-draft.tsx).
 */
export async function keepFormOnSessionEnd<T>(run: () => Promise<T>) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response && error.status === 401) {
      const body: SessionEndedData = { status: { tone: "error", text: AUTOSAVE_TEXT.sessionEnded }, sessionEnded: true };
      return data(body, { status: 401 });
    }
    throw error;
  }
}
