/**
 * /dashboard/enquiries/:id: one enquiry: what was sent, its state (new, in
 * progress, closed), a staff note, who handled it; delete at once (a request
 * under PIPEDA, or spam). Owners and admins only (permission "enquiries").
 * Every change is recorded in the audit trail (without the sender's details).
 */
import { useEffect, useRef } from "react";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/enquiry";
import { flashHeaders } from "~/.server/admin/flash.server";
import { isRefusal, parseId, readForm, type FailureData } from "~/.server/http/form-post";
import { deleteEnquiry, enquiryLabel, getEnquiry, updateEnquiry } from "~/.server/db/enquiries";
import { log } from "~/.server/log";
import { AdminPage } from "~/components/admin/admin-page";
import { ConfirmDelete, ConfirmPanel } from "~/components/admin/confirm-delete";
import { EnquiryStateBadge } from "~/components/admin/enquiry-state";
import { focusFirstInvalid, TextField } from "~/components/admin/fields";
import { useFormKey } from "~/components/admin/form-key";
import { btnPrimary, labelClass, linkClass } from "~/components/admin/styles";
import { staffDateTime } from "~/lib/dates";
import {
  ENQUIRY_ADMIN_MSG,
  ENQUIRY_AREA_LABELS,
  ENQUIRY_NOTE_MAX,
  ENQUIRY_STATE_LABELS,
  ENQUIRY_STATES,
  enquiryUpdateSchema,
  type EnquiryArea,
  type EnquiryState,
} from "~/lib/forms/enquiry";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "enquiries" } satisfies RouteHandle;

type EnquiryData = FailureData & { values?: { state: string; staff_note: string } };

export function meta() {
  return [{ title: "Enquiry | Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const enquiry = id ? await getEnquiry(id) : undefined;
  if (!enquiry) throw data("Not found", { status: 404 });
  const confirming = new URL(request.url).searchParams.get("confirm") === String(enquiry.id);
  return {
    confirming,
    enquiry: {
      id: enquiry.id,
      label: enquiryLabel(enquiry.id),
      name: enquiry.name,
      email: enquiry.email,
      phone: enquiry.phone,
      area: ENQUIRY_AREA_LABELS[enquiry.practice_area as EnquiryArea] ?? enquiry.practice_area,
      message: enquiry.message,
      state: enquiry.state as EnquiryState,
      staff_note: enquiry.staff_note,
      received: staffDateTime(enquiry.created_at),
      consented: staffDateTime(enquiry.consented_at),
      handledBy: enquiry.handled_by,
      handledAt: enquiry.handled_at ? staffDateTime(enquiry.handled_at) : null,
    },
  };
}

function fail(status: number, body: EnquiryData) {
  return data<EnquiryData>(body, { status });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(context, ENQUIRY_ADMIN_MSG.updateError);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const id = parseId(params.id);
  const raw = formValues(form);
  if (raw.intent === "delete") {
    if (!id || parseId(raw.id) !== id) return fail(400, { status: { tone: "error", text: ENQUIRY_ADMIN_MSG.deleteError } });
    let gone;
    try {
      gone = await deleteEnquiry(id, actor);
    } catch (error) {
      log("error", "enquiry not deleted", { id, error: (error as Error).message.slice(0, 200) });
      return fail(500, { status: { tone: "error", text: ENQUIRY_ADMIN_MSG.deleteError } });
    }
    if (!gone) return fail(404, { status: { tone: "error", text: ENQUIRY_ADMIN_MSG.deleteError } });
    return redirect("/dashboard/enquiries", { headers: await flashHeaders({ tone: "success", text: ENQUIRY_ADMIN_MSG.deleted }) });
  }
  const values = {
    state: String(raw.state ?? "").slice(0, 40),
    staff_note: String(raw.staff_note ?? "").slice(0, ENQUIRY_NOTE_MAX + 1000),
  };
  if (!id) return fail(404, { status: { tone: "error", text: ENQUIRY_ADMIN_MSG.loadError }, values });
  const parsed = enquiryUpdateSchema.safeParse(raw);
  if (!parsed.success)
    return fail(400, { status: { tone: "error", text: MSG.checkFields }, errors: fieldErrors(parsed.error.issues), values });
  let updated;
  try {
    updated = await updateEnquiry(id, parsed.data, actor);
  } catch (error) {
    log("error", "enquiry not updated", { id, error: (error as Error).message.slice(0, 200) });
    return fail(500, { status: { tone: "error", text: ENQUIRY_ADMIN_MSG.updateError }, values });
  }
  if (!updated) return fail(404, { status: { tone: "error", text: ENQUIRY_ADMIN_MSG.loadError }, values });
  return redirect(`/dashboard/enquiries/${id}`, { headers: await flashHeaders({ tone: "success", text: ENQUIRY_ADMIN_MSG.updated }) });
}

export default function EnquiryScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { enquiry: e, confirming } = loaderData;
  const key = useFormKey(actionData);
  const failed = actionData && "values" in actionData ? (actionData as EnquiryData) : undefined;
  const errors = failed?.errors ?? {};
  const values = failed?.values ?? { state: e.state, staff_note: e.staff_note };
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (failed?.errors) focusFirstInvalid(formRef.current);
  }, [failed?.errors]);
  const deleteName = `${e.label} from ${e.name}`;
  return (
    <AdminPage
      title={e.label}
      back={{ to: "/dashboard/enquiries", label: "Enquiries" }}
      actions={<ConfirmDelete id={e.id} name={deleteName} q="" />}
    >
      {confirming ? <ConfirmPanel id={e.id} name={deleteName} q="" cancelTo={`/dashboard/enquiries/${e.id}`} /> : null}
      <section aria-labelledby="sent-title" className="rounded border border-line bg-white p-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="sent-title" className="text-xl font-semibold">
            From {e.name}
          </h2>
          <EnquiryStateBadge state={e.state} />
        </div>
        <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          <dt className="font-semibold">E-mail</dt>
          <dd className="break-all">
            <a className={linkClass} href={`mailto:${e.email}`}>
              {e.email}
            </a>
          </dd>
          <dt className="font-semibold">Phone</dt>
          <dd>
            {e.phone ? (
              <a className={linkClass} href={`tel:${e.phone.replace(/[^\d+]/g, "")}`}>
                {e.phone}
              </a>
            ) : (
              <span className="text-muted">Not given</span>
            )}
          </dd>
          <dt className="font-semibold">Area</dt>
          <dd>{e.area}</dd>
          <dt className="font-semibold">Received</dt>
          <dd>{e.received}</dd>
          <dt className="font-semibold">Consent given</dt>
          <dd>{e.consented}</dd>
          <dt className="font-semibold">Handled by</dt>
          <dd>{e.handledBy ? `${e.handledBy}, ${e.handledAt}` : <span className="text-muted">Nobody yet</span>}</dd>
        </dl>
        <h3 className="mt-6 font-sans text-base font-semibold">Message</h3>
        <p className="mt-2 whitespace-pre-wrap break-words text-ink">{e.message}</p>
      </section>

      <Form key={key} ref={formRef} method="post" noValidate aria-label="State and note" className="mt-8 max-w-2xl space-y-6">
        <input type="hidden" name="intent" value="save" />
        <fieldset aria-describedby={errors.state ? "field-state-error" : undefined}>
          <legend className={labelClass}>State</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {ENQUIRY_STATES.map((s) => (
              <label key={s} className="inline-flex items-center gap-2">
                <input type="radio" name="state" value={s} defaultChecked={values.state === s} className="size-4 accent-accent" />
                {ENQUIRY_STATE_LABELS[s]}
              </label>
            ))}
          </div>
          {errors.state ? (
            <p id="field-state-error" className="mt-1 text-sm font-semibold text-error">
              {errors.state}
            </p>
          ) : null}
        </fieldset>
        <TextField
          name="staff_note"
          label="Staff note"
          multiline
          rows={5}
          defaultValue={values.staff_note}
          error={errors.staff_note}
          maxLength={ENQUIRY_NOTE_MAX}
          hint="Seen by staff only: who is calling back, the result of the conflict check, and so on."
        />
        <button type="submit" className={btnPrimary}>
          SAVE
        </button>
      </Form>
    </AdminPage>
  );
}
