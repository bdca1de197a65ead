/**
 * /dashboard/trash: deleted team members, articles and events, kept 30 days. Restore
 * puts one back (URL and picture kept); "Delete permanently" asks a second
 * time (a confirmation panel, with or without JavaScript) and then removes it
 * and its pictures for good (app/.server/db/trash.ts).
 */
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/trash";
import { flashHeaders } from "~/.server/admin/flash.server";
import { isRefusal, parseId, readForm } from "~/.server/http/form-post";
import { listTrash, purgeFromTrash, restoreFromTrash, TRASH_DAYS, TRASH_KINDS, type TrashKind } from "~/.server/db/trash";
import { log } from "~/.server/log";
import { AdminPage } from "~/components/admin/admin-page";
import { btnDanger, btnPrimary, btnSecondary } from "~/components/admin/styles";
import { firmDateTimeText } from "~/lib/firm-time";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "content",
  nav: {
    label: "Trash",
    text: "Deleted team members, articles and events, kept 30 days: restore or delete for good.",
    order: 30,
    icon: "trash",
  },
} satisfies RouteHandle;

const FAILED = "An error occurred while changing the Trash. Please try again.";
const kindOf = (v: unknown): TrashKind | null => ((TRASH_KINDS as readonly unknown[]).includes(v) ? (v as TrashKind) : null);
const KIND_LABELS: Record<TrashKind, string> = { article: "Article", team: "Team member", event: "Event" };

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const confirm = /^(article|team|event)-(\d{1,9})$/.exec(url.searchParams.get("confirm") ?? "");
  const items = await listTrash();
  return {
    items: items.map((i) => ({
      key: `${i.kind}-${i.id}`,
      kind: i.kind,
      id: i.id,
      label: i.label,
      deleted: firmDateTimeText(i.deleted_at),
      purgeOn: firmDateTimeText(new Date(i.deleted_at.getTime() + TRASH_DAYS * 86_400_000)),
    })),
    confirm: confirm ? `${confirm[1]}-${confirm[2]}` : null,
    days: TRASH_DAYS,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, FAILED);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const kind = kindOf(form.get("kind"));
  const id = parseId(form.get("id"));
  const intent = form.get("intent");
  if (!kind || !id || (intent !== "restore" && intent !== "purge"))
    return data({ status: { tone: "error" as const, text: FAILED } }, { status: 400 });
  let label: string | undefined;
  try {
    label = intent === "restore" ? await restoreFromTrash(kind, id, actor) : await purgeFromTrash(kind, id, actor);
  } catch (error) {
    log("error", "trash not changed", { kind, id, error: (error as Error).message });
    return data({ status: { tone: "error" as const, text: FAILED } }, { status: 500 });
  }
  if (label === undefined)
    return data({ status: { tone: "error" as const, text: "That item is no longer in the Trash." } }, { status: 404 });
  const text = intent === "restore" ? `“${label}” was restored.` : `“${label}” was deleted permanently.`;
  return redirect("/dashboard/trash", { headers: await flashHeaders({ tone: "success", text }) });
}

export default function Trash({ loaderData }: Route.ComponentProps) {
  const { items, confirm, days } = loaderData;
  return (
    <AdminPage title="Trash" back={{ to: "/dashboard", label: "Dashboard" }}>
      <p className="mb-6 text-muted">
        Deleted team members, articles and events stay here for {days} days, then they and their pictures are removed for good.
      </p>
      {items.length === 0 ? (
        <p className="py-8 text-center text-muted">The Trash is empty.</p>
      ) : (
        <ul className="divide-y divide-line rounded border border-line bg-white">
          {items.map((item) => (
            <li key={item.key} className="flex flex-wrap items-center justify-between gap-4 px-4 py-3">
              <div>
                <p className="font-semibold">{item.label}</p>
                <p className="text-sm text-muted">
                  {KIND_LABELS[item.kind]} · deleted {item.deleted} · removed for good {item.purgeOn}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Form method="post" aria-label={`Restore ${item.label}`}>
                  <input type="hidden" name="intent" value="restore" />
                  <input type="hidden" name="kind" value={item.kind} />
                  <input type="hidden" name="id" value={item.id} />
                  <button type="submit" className={btnSecondary} aria-label={`Restore ${item.label}`}>
                    Restore
                  </button>
                </Form>
                {confirm === item.key ? (
                  <div
                    role="alertdialog"
                    aria-labelledby={`purge-${item.key}`}
                    className="w-full rounded border border-error p-3 sm:w-auto"
                  >
                    <p id={`purge-${item.key}`} className="font-semibold">
                      Delete “{item.label}” permanently? This cannot be undone.
                    </p>
                    <div className="mt-2 flex gap-2">
                      <Form method="post" aria-label={`Delete ${item.label} permanently`}>
                        <input type="hidden" name="intent" value="purge" />
                        <input type="hidden" name="kind" value={item.kind} />
                        <input type="hidden" name="id" value={item.id} />
                        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the confirmation replaces the row's buttons when the person asks to delete (a page of its own without JavaScript): its button takes the focus, as a dialog's would. */}
                        <button type="submit" className={btnDanger} autoFocus>
                          Delete permanently
                        </button>
                      </Form>
                      <Link to="/dashboard/trash" className={btnPrimary}>
                        Cancel
                      </Link>
                    </div>
                  </div>
                ) : (
                  <Form method="get" aria-label={`Ask to delete ${item.label} permanently`}>
                    <input type="hidden" name="confirm" value={item.key} />
                    <button type="submit" className={btnDanger} aria-label={`Delete permanently ${item.label}`}>
                      Delete permanently
                    </button>
                  </Form>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </AdminPage>
  );
}
