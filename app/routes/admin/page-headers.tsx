/** /dashboard/headers/edit ("page headers": the banners' text, not HTTP or security headers): the text under each page banner; one small form per page key, each saved on its own. */
import { useState } from "react";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/page-headers";
import { flashHeaders } from "~/.server/admin/flash.server";
import { isRefusal, readForm, type FailureData } from "~/.server/http/form-post";
import { listPageHeaders, updatePageHeader } from "~/.server/db/page-headers";
import { log } from "~/.server/log";
import { AdminPage } from "~/components/admin/admin-page";
import { TextField } from "~/components/admin/fields";
import { useFormKey } from "~/components/admin/form-key";
import { useAnnounce } from "~/components/admin/status";
import { btnPrimary } from "~/components/admin/styles";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import { headerSchema, MAX_HEADER_TEXT } from "~/lib/forms/header";
import { MSG } from "~/lib/forms/messages";
import { HEADER_KEYS, type HeaderKey } from "~/lib/practice";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "content",
  nav: { label: "Page headers", title: "Update Page Headers", text: "The text under each page banner.", order: 50, icon: "headers" },
} satisfies RouteHandle;

const PAGE_TITLES: Record<HeaderKey, string> = {
  team: "Our Team",
  news: "News & Insights",
  insurance: "Insurance Defence",
  construction: "Construction Disputes",
  cyber: "Cyber Security & Incident Response",
};

type HeaderData = FailureData & { name?: string; values?: { header_text: string }; errors?: Record<string, string> };

export async function loader() {
  const rows = await listPageHeaders();
  return { pageHeaders: HEADER_KEYS.map((name) => ({ name, header_text: rows.find((r) => r.name === name)?.header_text ?? "" })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.updateError);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const raw = formValues(form);
  const name = typeof raw.name === "string" && (HEADER_KEYS as readonly string[]).includes(raw.name) ? raw.name : undefined;
  const values = { header_text: String(raw.header_text ?? "").slice(0, MAX_HEADER_TEXT + 1000) };
  const parsed = headerSchema.safeParse(raw);
  if (!name || !parsed.success) {
    const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
    const text = name ? MSG.headerError(name) : "Unknown page. Please reload and try again.";
    return data<HeaderData>({ status: { tone: "error", text }, name, errors, values }, { status: 400 });
  }
  try {
    await updatePageHeader(parsed.data.name, parsed.data.header_text, actor);
  } catch (error) {
    log("error", "header not updated", { name, error: (error as Error).message });
    return data<HeaderData>({ status: { tone: "error", text: MSG.headerError(name) }, name, values }, { status: 500 });
  }
  return redirect("/dashboard/headers/edit", { headers: await flashHeaders({ tone: "success", text: MSG.headerUpdated(name) }) });
}

function HeaderForm({ name, text, error }: { name: HeaderKey; text: string; error?: string }) {
  const announce = useAnnounce();
  const [localError, setLocalError] = useState<string | null>(null);
  return (
    <Form
      method="post"
      noValidate
      aria-labelledby={`header-${name}-title`}
      className="rounded border border-line bg-white p-5"
      onSubmit={(event) => {
        const parsed = headerSchema.safeParse(formValues(new FormData(event.currentTarget)));
        if (parsed.success) return setLocalError(null);
        event.preventDefault();
        const found = fieldErrors(parsed.error.issues);
        setLocalError(found.header_text ?? null);
        announce({ tone: "error", text: MSG.headerError(name) });
      }}
    >
      <h2 id={`header-${name}-title`} className="text-xl font-semibold">
        {PAGE_TITLES[name]} <span className="font-sans text-base font-normal text-muted">({name})</span>
      </h2>
      <input type="hidden" name="name" value={name} />
      <TextField
        className="mt-3"
        id={`header-${name}`}
        name="header_text"
        label={`Header text for the ${name} page`}
        multiline
        rows={3}
        defaultValue={text}
        error={localError ?? error}
        maxLength={MAX_HEADER_TEXT}
      />
      <button type="submit" className={`${btnPrimary} mt-3`} aria-label={`Save the ${name} page header`}>
        Save
      </button>
    </Form>
  );
}

export default function PageHeaders({ loaderData, actionData }: Route.ComponentProps) {
  const key = useFormKey(actionData);
  const failed = actionData && "name" in actionData ? (actionData as HeaderData) : undefined;
  return (
    <AdminPage title="Update Page Headers" back={{ to: "/dashboard", label: "Dashboard" }}>
      <div key={key} className="space-y-6">
        {loaderData.pageHeaders.map((h) => (
          <HeaderForm
            key={h.name}
            name={h.name}
            text={failed?.name === h.name && failed.values ? failed.values.header_text : h.header_text}
            error={failed?.name === h.name ? failed.errors?.header_text : undefined}
          />
        ))}
      </div>
    </AdminPage>
  );
}
