/**
 * The article save (shared by /dashboard/articles/new and
 * /dashboard/articles/:id/edit) and delete. The caller has already checked
 * the session and role (actingStaff) and passes the Actor the audit trail
 * records. Bodies are sanitised before they are stored; the picture and the
 * row are written together (see team.server.ts).
 */
import { data, redirect } from "react-router";
import { listSearch } from "~/lib/list-search";
import { ARTICLE_LISTS, articleSchema, articleValuesFromForm, type ArticleFormValues } from "~/lib/forms/article";
import { fieldErrors, formText, formValues, hasMissing } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";
import { listHref, parsePage } from "~/lib/pagination";
import { createArticle, deleteArticle, updateArticle, type Article } from "../db/articles";
import { articleAuthorIds, listAuthorChoices } from "../db/article-authors";
import { deleteImage, ImageRejected, saveImage } from "../pictures/images";
import type { Actor } from "../db/audit";
import { log } from "../log";
import { EditConflict } from "../db/revisions";
import { conflictText } from "~/lib/forms/conflict";
import { StorageUnavailable } from "../storage/storage";
import { picturesWithoutAlt, sanitizeArticleHtml } from "../content/sanitize";
import { forgetAutosave } from "../db/autosaves";
import { BODY_PICTURE_TEXT } from "~/lib/body-pictures";
import { flashHeaders } from "./flash.server";
import { isRefusal, MAX_FORM_BYTES, parseId, readForm, uploadedFile, type FailureData } from "../http/form-post";
import { escapeHtml } from "~/lib/html";

export type ArticleActionData = FailureData & { values?: ArticleFormValues; conflict?: boolean };

/** The version the form was opened on (hidden field); undefined skips the check (old forms, scripts). */
export function formVersion(v: unknown): number | undefined {
  const n = typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export const AUTHORS_UNKNOWN = "One of the chosen authors is no longer on the team list. Reload the page to see the current list.";

function fail(status: number, body: ArticleActionData) {
  return data<ArticleActionData>(body, { status });
}

/** Text typed without the editor (no JavaScript) becomes paragraphs; HTML is kept for the sanitiser. */
export function bodyHtml(copy: string): string {
  if (/<[a-z!/]/i.test(copy)) return copy;
  return copy
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\r?\n/g, "<br>")}</p>`)
    .join("");
}

export async function saveArticleAction(request: Request, actor: Actor, existing?: Article) {
  const form = await readForm(request, MAX_FORM_BYTES);
  if (isRefusal(form)) return form;
  const raw = formValues(form, ARTICLE_LISTS);
  const values = articleValuesFromForm(raw);
  const file = uploadedFile(form, "photo");
  const socialFile = uploadedFile(form, "social_photo");

  const parsed = articleSchema.safeParse(raw);
  const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
  let copy = "";
  if (parsed.success) {
    copy = sanitizeArticleHtml(bodyHtml(parsed.data.copy));
    if (!/[^\s]/.test(copy.replace(/<[^>]*>/g, "").replace(/&nbsp;/g, " "))) errors.copy = "Article body is required.";
    // A picture in the body needs its description (the editor asks for it; HTML sent otherwise may lack it).
    else if (picturesWithoutAlt(parsed.data.copy) > 0) errors.copy = BODY_PICTURE_TEXT.missingAlt;
  }
  if (!existing && !file) errors.photo = MSG.articleImageRequired;
  if (parsed.success && parsed.data.authors.length) {
    // Only members the form offers (not in the Trash, or already an author of this article).
    const offered = new Set((await listAuthorChoices(existing ? await articleAuthorIds(existing.id) : [])).map((m) => m.id));
    if (parsed.data.authors.some((id) => !offered.has(id))) errors.authors = AUTHORS_UNKNOWN;
  }
  if (Object.keys(errors).length || !parsed.success) {
    if (file) errors.photo ??= MSG.chooseImageAgain;
    if (socialFile) errors.social_photo ??= MSG.chooseImageAgain;
    const text =
      !existing && !file && !Object.keys(errors).some((k) => k !== "photo")
        ? MSG.articleImageRequired
        : hasMissing(errors)
          ? MSG.missingFields
          : MSG.checkFields;
    return fail(400, { status: { tone: "error", text }, errors, values });
  }

  // The article picture, then the social picture: each stored before the row (picture-sweep.ts covers a crash in between).
  const saved: Partial<Record<"photo" | "social_photo", string>> = {};
  const discard = async () => {
    for (const img of Object.values(saved)) await deleteImage("articles", img);
  };
  for (const [field, upload] of [
    ["photo", file],
    ["social_photo", socialFile],
  ] as const) {
    if (!upload) continue;
    try {
      saved[field] = await saveImage("articles", new Uint8Array(await upload.arrayBuffer()));
    } catch (error) {
      await discard();
      if (!(error instanceof ImageRejected)) log("error", "article picture not saved", { field, error: (error as Error).message });
      // A store that does not answer: 503 with what was typed, and a message that says it is not the picture.
      const message =
        error instanceof ImageRejected ? error.message : error instanceof StorageUnavailable ? MSG.pictureStoreDown : MSG.imageUploadError;
      const other = field === "photo" ? (socialFile ? "social_photo" : null) : file ? "photo" : null;
      return fail(error instanceof ImageRejected ? 400 : error instanceof StorageUnavailable ? 503 : 500, {
        status: { tone: "error", text: MSG.imageUploadError },
        errors: { [field]: `${message} ${MSG.chooseImageAgain}`, ...(other ? { [other]: MSG.chooseImageAgain } : {}) },
        values,
      });
    }
  }
  const newImg = saved.photo ?? null;
  const newSocial = saved.social_photo ?? null;
  const removeSocial = !newSocial && raw.remove_social_photo === "on";
  const { status, publishAt, ...fields } = parsed.data;
  const input = {
    ...fields,
    copy,
    img: newImg ?? existing?.img ?? "",
    social_img: newSocial ?? (removeSocial ? "" : (existing?.social_img ?? "")),
    state: { status, publishAt },
  };
  const chooseAgain = { ...(newImg ? { photo: MSG.chooseImageAgain } : {}), ...(newSocial ? { social_photo: MSG.chooseImageAgain } : {}) };
  const anyNew = Object.keys(chooseAgain).length > 0;

  if (!existing) {
    try {
      await createArticle(input, actor);
    } catch (error) {
      log("error", "article not added", { error: (error as Error).message });
      await discard();
      return fail(500, {
        status: { tone: "error", text: MSG.articleAddError },
        values,
        errors: { photo: MSG.chooseImageAgain, ...chooseAgain },
      });
    }
    await forgetAutosave(actor.userId, null);
    return redirect("/dashboard/articles/new", { headers: await flashHeaders({ tone: "success", text: MSG.articleAdded }) });
  }

  let result: Awaited<ReturnType<typeof updateArticle>>;
  try {
    result = await updateArticle(existing.id, { ...input, expectedVersion: formVersion(raw.version) }, actor);
  } catch (error) {
    if (error instanceof EditConflict) {
      await discard();
      return fail(409, {
        status: { tone: "error", text: conflictText(error.savedBy, error.savedAt) },
        values,
        conflict: true,
        errors: anyNew ? chooseAgain : undefined,
      });
    }
    log("error", "article not updated", { id: existing.id, error: (error as Error).message });
    result = undefined;
  }
  if (!result) {
    await discard();
    return fail(500, { status: { tone: "error", text: MSG.updateError }, values, errors: anyNew ? chooseAgain : undefined });
  }
  if (result.before.img && result.before.img !== result.after.img) await deleteImage("articles", result.before.img);
  // The social picture replaced or removed: the old one goes.
  if (result.before.social_img && result.before.social_img !== result.after.social_img)
    await deleteImage("articles", result.before.social_img);
  await forgetAutosave(actor.userId, existing.id);
  return redirect(`/dashboard/articles/${result.after.id}/edit`, {
    headers: await flashHeaders({ tone: "success", text: MSG.articleUpdated }),
  });
}

export async function deleteArticleAction(request: Request, actor: Actor) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const id = parseId(form.get("id"));
  if (form.get("intent") !== "delete" || !id) return fail(400, { status: { tone: "error", text: MSG.articleDeleteError } });
  let row: Article | undefined;
  try {
    row = await deleteArticle(id, actor);
  } catch (error) {
    log("error", "article not deleted", { id, error: (error as Error).message });
    return fail(500, { status: { tone: "error", text: MSG.articleDeleteError } });
  }
  if (!row) return fail(404, { status: { tone: "error", text: MSG.articleDeleteError } });
  // In the Trash: the picture stays until the item is deleted permanently (trash.ts).
  // Back to the same search and page of the list (a page past the end shows the last).
  const q = listSearch(formText(form, "q"));
  return redirect(listHref("/dashboard/articles", q, parsePage(formText(form, "page"))), {
    headers: await flashHeaders({ tone: "success", text: MSG.articleDeleted }),
  });
}
