/**
 * /dashboard/history/:kind/:id: the saved versions of an article, team
 * member or event (last 50), newest first; what each changed in the text fields (an
 * inline diff against the version before it); Restore, which saves that
 * version's text (and an article's authors) again as a new version
 * (pictures and state stay as they are now; nothing earlier is rewritten).
 */
import { diffWordsWithSpace } from "diff";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/history";
import { flashHeaders } from "~/.server/admin/flash.server";
import { isRefusal, parseId, readForm } from "~/.server/http/form-post";
import { getArticleById, updateArticle } from "~/.server/db/articles";
import { getRevision, listRevisions, previousRevision, type RevisionKind } from "~/.server/db/revisions";
import { getTeamMemberById, updateTeamMember } from "~/.server/db/team";
import { eventFieldsOf, eventSpeakerInputs, getEventById, saveEvent } from "~/.server/db/event-editing";
import type { ArticleState } from "~/.server/db/visibility";
import { log } from "~/.server/log";
import { articleText } from "~/.server/content/sanitize";
import { AdminPage } from "~/components/admin/admin-page";
import { btnSecondary } from "~/components/admin/styles";
import { firmDateTimeText } from "~/lib/firm-time";
import type { SupportStaff } from "~/.server/db/schema";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;
import { credentialsOf, credentialText } from "~/lib/profile-revisions";

const TEXT_FIELDS: Record<RevisionKind, [string, string][]> = {
  article: [
    ["title", "Title"],
    ["category", "Category"],
    ["authors", "Authors"],
    ["copy", "Article body"],
    ["summary", "Summary"],
    ["seo_title", "SEO title"],
    ["seo_description", "SEO description"],
  ],
  event: [
    ["title", "Title"],
    ["summary", "Summary"],
    ["copy", "Description"],
    ["speakers", "Speakers"],
    ["venue_name", "Venue"],
    ["accreditation_number", "Accreditation number"],
    ["recording_url", "Recording"],
    ["recording_captions", "Captions"],
  ],
  team: [
    ["full_name", "Full name"],
    ["title", "Title"],
    ["email", "Email"],
    ["mobile", "Mobile"],
    ["desc", "Bio"],
    ["admissions", "Bar admissions"],
    ["languages", "Languages"],
    ["education", "Education"],
    ["matters", "Representative matters"],
    ["memberships", "Professional memberships"],
    ["specialist_area", "Law Society certified specialist"],
  ],
};
const NOT_FOUND = "That item or version was not found.";
const kindOf = (v: unknown): RevisionKind | null => (v === "article" || v === "team" || v === "event" ? v : null);

async function findItem(kind: RevisionKind, id: number) {
  if (kind === "article") {
    const a = await getArticleById(id);
    return a ? { label: a.title, editTo: `/dashboard/articles/${a.id}/edit`, version: a.version } : undefined;
  }
  if (kind === "event") {
    const e = await getEventById(id);
    return e ? { label: e.title, editTo: `/dashboard/events/${e.id}/edit`, version: e.version } : undefined;
  }
  const m = await getTeamMemberById(id);
  return m ? { label: m.full_name, editTo: `/dashboard/lawyer/${encodeURIComponent(m.slug)}`, version: m.version } : undefined;
}

/** Authors as a revision keeps them: `{ id, name }` pairs. */
function authorRefs(value: unknown): { id: number; name: string }[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((a): a is { id: number; name: string } => !!a && typeof a === "object" && typeof (a as { id?: unknown }).id === "number")
    .map((a) => ({ id: a.id, name: String(a.name ?? "") }));
}

function textOf(field: string, value: unknown, fields?: Record<string, unknown>): string {
  if (field === "admissions" || field === "education" || field === "languages" || field === "memberships" || field === "specialist_area")
    return credentialText(field, fields ?? {});
  if (field === "matters") return articleText(typeof value === "string" ? value : "");
  if (field === "authors")
    return authorRefs(value)
      .map((a) => a.name)
      .join(", ");
  // Text as it is; a number or a yes/no as written; anything else as JSON (never "[object Object]").
  const s = typeof value === "string" ? value : value == null ? "" : (JSON.stringify(value) ?? "");
  return field === "copy" ? articleText(s) : s;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const kind = kindOf(params.kind);
  const id = parseId(params.id);
  const item = kind && id ? await findItem(kind, id) : undefined;
  if (!kind || !id || !item) throw new Response(NOT_FOUND, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const list = await listRevisions(kind, id);
  const wanted = parseId(new URL(request.url).searchParams.get("rev"));
  const selected = (wanted ? list.find((r) => r.id === wanted) : undefined) ?? list[0];
  let changes: { field: string; label: string; parts: { value: string; added?: boolean; removed?: boolean }[] }[] = [];
  if (selected) {
    const before = await previousRevision(kind, id, selected.id);
    changes = TEXT_FIELDS[kind]
      .map(([field, label]) => {
        const a = textOf(field, before?.fields[field], before?.fields);
        const b = textOf(field, selected.fields[field], selected.fields);
        return {
          field,
          label,
          parts:
            a === b
              ? []
              : diffWordsWithSpace(a, b).map((p) => ({ value: p.value, added: p.added || undefined, removed: p.removed || undefined })),
        };
      })
      .filter((c) => c.parts.length);
  }
  return {
    kind,
    id,
    item,
    revisions: list.map((r) => ({
      id: r.id,
      version: r.version,
      by: r.actor_label,
      at: firmDateTimeText(r.at),
      current: r.version === item.version,
    })),
    selected: selected
      ? { id: selected.id, version: selected.version, first: !changes.length && list[list.length - 1]?.id === selected.id }
      : null,
    changes,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = actorOf(context, "An error occurred while restoring the version. Please try again.");
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const kind = kindOf(params.kind);
  const id = parseId(params.id);
  const revId = parseId(form.get("revision"));
  const rev = kind && id && revId ? await getRevision(kind, id, revId) : undefined;
  if (!kind || !id || !rev || form.get("intent") !== "restore")
    return data({ status: { tone: "error" as const, text: NOT_FOUND } }, { status: 404 });
  const f = rev.fields;
  const str = (k: string) => (typeof f[k] === "string" ? f[k] : "");
  /** A field the revision may predate (summary, SEO texts, authors): left out, the current value stays. */
  const optionalStr = (k: string) => (typeof f[k] === "string" ? f[k] : undefined);
  try {
    let result: { after: { version: number } } | undefined;
    if (kind === "article") {
      const now = await getArticleById(id);
      if (!now) return data({ status: { tone: "error" as const, text: NOT_FOUND } }, { status: 404 });
      // Pictures (the article's and the social one) and the state stay as they are now.
      result = await updateArticle(
        id,
        {
          title: str("title"),
          category: str("category"),
          news: f.news === true,
          priority: f.priority === true,
          copy: str("copy"),
          img: now.img,
          summary: optionalStr("summary"),
          seo_title: optionalStr("seo_title"),
          seo_description: optionalStr("seo_description"),
          authors: Array.isArray(f.authors) ? authorRefs(f.authors).map((a) => a.id) : undefined,
        },
        actor,
      );
    } else if (kind === "event") {
      // The texts come back; the time, place, speakers, CPD and state stay as they are now (a move tells registrants; a restore must not).
      const now = await getEventById(id);
      if (!now) return data({ status: { tone: "error" as const, text: NOT_FOUND } }, { status: 404 });
      result = await saveEvent(
        id,
        {
          ...eventFieldsOf(now),
          title: str("title") || now.title,
          summary: str("summary"),
          copy: str("copy") || now.copy,
          state: { status: now.status as ArticleState, publishAt: now.published_at },
          speakers: await eventSpeakerInputs(id),
        },
        actor,
      );
    } else {
      const now = await getTeamMemberById(id);
      if (!now) return data({ status: { tone: "error" as const, text: NOT_FOUND } }, { status: 404 });
      result = await updateTeamMember(
        id,
        {
          full_name: str("full_name"),
          title: str("title"),
          email: str("email"),
          extension: typeof f.extension === "number" ? f.extension : null,
          mobile: str("mobile"),
          desc: str("desc"),
          img: now.img,
          AOP: Array.isArray(f.AOP) ? (f.AOP as string[]) : [],
          area_details: Array.isArray(f.area_details) ? (f.area_details as string[]) : [],
          staff: Array.isArray(f.staff) ? (f.staff as SupportStaff[]) : [],
          // Credentials (issue 33): a revision saved before them leaves the current ones as they are.
          ...credentialsOf(f),
        },
        actor,
      );
    }
    if (!result) return data({ status: { tone: "error" as const, text: NOT_FOUND } }, { status: 404 });
    return redirect(`/dashboard/history/${kind}/${id}`, {
      headers: await flashHeaders({ tone: "success", text: `Version ${rev.version} restored (saved as version ${result.after.version}).` }),
    });
  } catch (error) {
    log("error", "revision not restored", { kind, id, error: (error as Error).message });
    return data(
      { status: { tone: "error" as const, text: "An error occurred while restoring the version. Please try again." } },
      { status: 500 },
    );
  }
}

export default function History({ loaderData }: Route.ComponentProps) {
  const { kind, id, item, revisions, selected, changes } = loaderData;
  return (
    <AdminPage title={`History: ${item.label}`} back={{ to: item.editTo, label: kind === "article" ? "Edit article" : "Edit team member" }}>
      <div className="grid gap-8 lg:grid-cols-[18rem_1fr]">
        <nav aria-label="Versions">
          <ol className="divide-y divide-line rounded border border-line bg-white">
            {revisions.map((r) => (
              <li key={r.id} className="px-3 py-2">
                <Link
                  to={`/dashboard/history/${kind}/${id}?rev=${r.id}`}
                  aria-current={selected?.id === r.id ? "page" : undefined}
                  className={`block ${selected?.id === r.id ? "font-semibold" : ""} text-accent underline`}
                >
                  Version {r.version}
                  {r.current ? " (current)" : ""}
                </Link>
                <span className="block text-sm text-muted">
                  {r.by}, {r.at}
                </span>
              </li>
            ))}
          </ol>
        </nav>
        <section aria-labelledby="changes">
          <h2 id="changes" className="font-serif text-xl font-semibold">
            {selected ? `What version ${selected.version} changed` : "No saved versions yet"}
          </h2>
          {selected && !changes.length ? (
            <p className="mt-2 text-muted">{selected.first ? "The first saved version." : "No change to the text fields."}</p>
          ) : null}
          {changes.map((c) => (
            <div key={c.field} className="mt-4">
              <h3 className="font-semibold">{c.label}</h3>
              <p className="mt-1 rounded border border-line bg-white p-3 whitespace-pre-wrap">
                {c.parts.map((p, i) =>
                  p.added ? (
                    <ins key={i} className="bg-green-100 text-green-900">
                      {p.value}
                    </ins>
                  ) : p.removed ? (
                    <del key={i} className="bg-red-100 text-red-900">
                      {p.value}
                    </del>
                  ) : (
                    <span key={i}>{p.value}</span>
                  ),
                )}
              </p>
            </div>
          ))}
          {selected && !revisions.find((r) => r.id === selected.id)?.current ? (
            <Form method="post" className="mt-6" aria-label={`Restore version ${selected.version}`}>
              <input type="hidden" name="intent" value="restore" />
              <input type="hidden" name="revision" value={selected.id} />
              <button type="submit" className={btnSecondary}>
                Restore version {selected.version}
              </button>
            </Form>
          ) : null}
        </section>
      </div>
    </AdminPage>
  );
}
