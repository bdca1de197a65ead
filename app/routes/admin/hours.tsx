/** /dashboard/hours/edit: office hours start and end (free text, not blank). */
import { data, redirect } from "react-router";
import type { Route } from "./+types/hours";
import { flashHeaders } from "~/.server/admin/flash.server";
import { isRefusal, readForm, type FailureData } from "~/.server/http/form-post";
import { getOfficeHours, updateOfficeHours } from "~/.server/db/office-hours";
import { log } from "~/.server/log";
import { AdminPage } from "~/components/admin/admin-page";
import { useClientCheck } from "~/components/admin/client-check";
import { bindFields, TextField } from "~/components/admin/fields";
import { useFormKey } from "~/components/admin/form-key";
import { CheckedForm } from "~/components/admin/checked-form";
import { btnPrimary } from "~/components/admin/styles";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import { hoursSchema } from "~/lib/forms/hours";
import { MSG } from "~/lib/forms/messages";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "content",
  nav: { label: "Office hours", title: "Update Office Hours", text: "The opening hours shown on the home page.", order: 40, icon: "hours" },
} satisfies RouteHandle;

type HoursData = FailureData & { values?: { start_time: string; end_time: string } };

export async function loader() {
  return { hours: await getOfficeHours() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.hoursError);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const raw = formValues(form);
  const values = { start_time: String(raw.start_time ?? "").slice(0, 200), end_time: String(raw.end_time ?? "").slice(0, 200) };
  const parsed = hoursSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues);
    const blank = Object.values(errors).includes(MSG.hoursBlank);
    return data<HoursData>({ status: { tone: "error", text: blank ? MSG.hoursBlank : MSG.checkFields }, errors, values }, { status: 400 });
  }
  try {
    await updateOfficeHours(parsed.data, actor);
  } catch (error) {
    log("error", "hours not updated", { error: (error as Error).message });
    return data<HoursData>({ status: { tone: "error", text: MSG.hoursError }, values }, { status: 500 });
  }
  return redirect("/dashboard/hours/edit", { headers: await flashHeaders({ tone: "success", text: MSG.hoursUpdated }) });
}

export default function Hours({ loaderData, actionData }: Route.ComponentProps) {
  const key = useFormKey(actionData);
  const { clientErrors, onSubmit } = useClientCheck({
    schema: hoursSchema,
    status: (errors) => ({ tone: "error", text: Object.values(errors).includes(MSG.hoursBlank) ? MSG.hoursBlank : MSG.checkFields }),
  });
  const failed = actionData && "values" in actionData ? (actionData as HoursData) : undefined;
  const errors = clientErrors ?? failed?.errors ?? {};
  const values = failed?.values ?? loaderData.hours;
  const field = bindFields(values, errors);
  return (
    <AdminPage title="Update Office Hours" back={{ to: "/dashboard", label: "Dashboard" }}>
      <p className="mb-6 text-muted">Shown on the home page as the weekday opening hours (Monday to Friday).</p>
      <CheckedForm key={key} errors={failed?.errors} onSubmit={onSubmit} labelledBy="page-title" className="max-w-md space-y-6">
        <TextField {...field("start_time")} label="Start time" required maxLength={40} hint="For example 9:00" />
        <TextField {...field("end_time")} label="End time" required maxLength={40} hint="For example 5:00" />
        <button type="submit" className={btnPrimary}>
          SAVE HOURS
        </button>
      </CheckedForm>
    </AdminPage>
  );
}
