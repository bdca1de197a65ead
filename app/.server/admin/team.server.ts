/**
 * The team member save (shared by /dashboard/lawyers/new and
 * /dashboard/lawyer/:slug) and delete (from the list). The caller has
 * already checked the session and role (actingStaff) and passes the Actor
 * that the audit trail records.
 *
 * A save writes the row and the picture together: the new picture is stored
 * first; if the database write fails it is removed; the picture the row no
 * longer uses is removed after the write succeeded.
 */
import { data, redirect } from "react-router";
import { listSearch } from "~/lib/list-search";
import { fieldErrors, formText, formValues } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";
import { listHref } from "~/lib/pagination";
import { checkStaffEntry, TEAM_LISTS, teamMemberSchema, teamValuesFromForm, type TeamFormValues } from "~/lib/forms/team";
import { createTeamMember, deleteTeamMember, type TeamMember, updateTeamMember } from "../db/team";
import { deleteImage, ImageRejected, saveImage } from "../pictures/images";
import type { Actor } from "../db/audit";
import { log } from "../log";
import { formVersion } from "./articles.server";
import { EditConflict } from "../db/revisions";
import { conflictText } from "~/lib/forms/conflict";
import { StorageUnavailable } from "../storage/storage";
import { sanitizeMattersHtml } from "../content/sanitize";
import { teamFormStatus } from "~/lib/forms/team";
import { flashHeaders } from "./flash.server";
import { isRefusal, MAX_FORM_BYTES, parseId, readForm, uploadedFile, type FailureData } from "../http/form-post";

export type TeamActionData = FailureData & { values?: TeamFormValues; staffMessage?: string; staffOpen?: boolean; conflict?: boolean };

function fail(status: number, body: TeamActionData) {
  return data<TeamActionData>(body, { status });
}

export async function saveTeamMemberAction(request: Request, actor: Actor, existing?: TeamMember) {
  const form = await readForm(request, MAX_FORM_BYTES);
  if (isRefusal(form)) return form;
  const raw = formValues(form, TEAM_LISTS);
  const values = teamValuesFromForm(raw);
  const intent = typeof raw.intent === "string" ? raw.intent : "save";

  // Without JavaScript the support-staff buttons post the form: change the list, save nothing.
  if (intent === "add-staff") {
    const checked = checkStaffEntry(values.new_staff ?? {});
    if (!checked.ok)
      return fail(400, { status: { tone: "error", text: checked.message }, staffMessage: checked.message, staffOpen: true, values });
    return data<TeamActionData>({ values: { ...values, staff: [...values.staff, checked.value], new_staff: undefined } });
  }
  if (intent.startsWith("remove-staff:")) {
    const index = Number(intent.slice("remove-staff:".length));
    return data<TeamActionData>({ values: { ...values, staff: values.staff.filter((_, i) => i !== index) } });
  }

  const file = uploadedFile(form, "photo");
  const parsed = teamMemberSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues);
    if (file) errors.photo ??= MSG.chooseImageAgain;
    return fail(400, { status: teamFormStatus(errors), errors, values });
  }

  let newImg: string | null = null;
  if (file) {
    try {
      newImg = await saveImage("team", new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof ImageRejected)) log("error", "team picture not saved", { error: (error as Error).message });
      // A store that does not answer: 503 with what was typed, and a message that says it is not the picture.
      const message =
        error instanceof ImageRejected ? error.message : error instanceof StorageUnavailable ? MSG.pictureStoreDown : MSG.imageUploadError;
      return fail(error instanceof ImageRejected ? 400 : error instanceof StorageUnavailable ? 503 : 500, {
        status: { tone: "error", text: MSG.imageUploadError },
        errors: { photo: `${message} ${MSG.chooseImageAgain}` },
        values,
      });
    }
  }
  const removePhoto = !newImg && raw.remove_photo === "on";
  const input = {
    ...parsed.data,
    matters: sanitizeMattersHtml(parsed.data.matters),
    img: newImg ?? (removePhoto ? "" : (existing?.img ?? "")),
  };

  if (!existing) {
    let created: TeamMember;
    try {
      created = await createTeamMember(input, actor);
    } catch (error) {
      log("error", "team member not added", { error: (error as Error).message });
      if (newImg) await deleteImage("team", newImg);
      return fail(500, {
        status: { tone: "error", text: MSG.teamAddError },
        values,
        errors: newImg ? { photo: MSG.chooseImageAgain } : undefined,
      });
    }
    return redirect("/dashboard/lawyers/new", { headers: await flashHeaders({ tone: "success", text: MSG.teamAdded(created.full_name) }) });
  }

  let result: Awaited<ReturnType<typeof updateTeamMember>>;
  try {
    result = await updateTeamMember(existing.id, { ...input, expectedVersion: formVersion(raw.version) }, actor);
  } catch (error) {
    if (error instanceof EditConflict) {
      if (newImg) await deleteImage("team", newImg);
      return fail(409, {
        status: { tone: "error", text: conflictText(error.savedBy, error.savedAt) },
        values,
        conflict: true,
        errors: newImg ? { photo: MSG.chooseImageAgain } : undefined,
      });
    }
    log("error", "team member not updated", { id: existing.id, error: (error as Error).message });
    result = undefined;
  }
  if (!result) {
    if (newImg) await deleteImage("team", newImg);
    return fail(500, {
      status: { tone: "error", text: MSG.updateError },
      values,
      errors: newImg ? { photo: MSG.chooseImageAgain } : undefined,
    });
  }
  if (result.before.img && result.before.img !== result.after.img) await deleteImage("team", result.before.img);
  return redirect(`/dashboard/lawyer/${encodeURIComponent(result.after.slug)}`, {
    headers: await flashHeaders({ tone: "success", text: MSG.teamUpdated(result.after.full_name) }),
  });
}

/** intent=delete with id, from the team list. A failed delete leaves the member listed and says so. */
export async function deleteTeamMemberAction(request: Request, actor: Actor) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const id = parseId(form.get("id"));
  if (form.get("intent") !== "delete" || !id) return fail(400, { status: { tone: "error", text: MSG.teamDeleteError } });
  let row: TeamMember | undefined;
  try {
    row = await deleteTeamMember(id, actor);
  } catch (error) {
    log("error", "team member not deleted", { id, error: (error as Error).message });
    return fail(500, { status: { tone: "error", text: MSG.teamDeleteError } });
  }
  if (!row) return fail(404, { status: { tone: "error", text: MSG.teamDeleteError } });
  // In the Trash: the picture stays until the item is deleted permanently (trash.ts).
  const q = listSearch(formText(form, "q"));
  return redirect(listHref("/dashboard/lawyers", q, 1), {
    headers: await flashHeaders({ tone: "success", text: MSG.teamDeleted(row.full_name) }),
  });
}
