/**
 * /dashboard/subscribers: insight subscribers (issue 31). Every role sees the
 * counts by status and topic (permission "subscriber-counts"); owners and
 * admins ("subscribers") also search and filter the list, open each
 * person's consent history, export the consent records as CSV and import
 * existing contacts (as pending: each is asked to confirm).
 */
import { Form, Link } from "react-router";
import { listSearch } from "~/lib/list-search";
import { ScrollRegion } from "~/components/scroll-region";
import type { Route } from "./+types/subscribers";
import { staffOf } from "~/.server/admin/guard.server";
import { listSubscribers, SUBSCRIBERS_PAGE_SIZE, subscriberCounts } from "~/.server/db/subscribers";
import { consentRequestState, impliedConsentCounts, latestImport } from "~/.server/db/subscriber-imports";
import { importView } from "~/lib/subscriber-import-view";
import { getEnv } from "~/.server/env";
import { ImportProgress } from "~/components/admin/subscriber-import-progress";
import { IMPORT_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_TOO_LARGE } from "~/lib/forms/subscriber-import";
import { useState, type FormEvent } from "react";
import { can } from "~/.server/auth/roles";
import { AdminPage } from "~/components/admin/admin-page";
import { RuledSection } from "~/components/admin/ruled-section";
import { CountsSection } from "~/components/admin/counts-section";
import { FilterSelect } from "~/components/admin/filter-select";
import { Pager } from "~/components/admin/pager";
import { SearchForm } from "~/components/admin/search-form";
import { ColumnHeads } from "~/components/admin/column-heads";
import { btnPrimary, labelClass, linkClass } from "~/components/admin/styles";
import { staffDateTime } from "~/lib/dates";
import {
  isTopic,
  SUBSCRIBER_STATUS_LABELS,
  SUBSCRIBER_STATUSES,
  SUBSCRIPTION_TOPICS,
  TOPIC_LABELS,
  topicList,
  type SubscriberStatus,
} from "~/lib/forms/subscribe";
import { pageCount, parsePage } from "~/lib/pagination";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "subscriber-counts",
  nav: {
    label: "Subscribers",
    text: "People who subscribed to insights by e-mail, with the record of their consent.",
    order: 70,
    icon: "subscribers",
  },
} satisfies RouteHandle;

export function meta() {
  return [{ title: "Subscribers | Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  const counts = await subscriberCounts();
  if (!can(staff.role, "subscribers")) return { counts, list: null, implied: null, lastImport: null, consentRequests: null };
  const url = new URL(request.url);
  const q = listSearch(url.searchParams.get("q"));
  const topicParam = url.searchParams.get("topic") ?? "";
  const statusParam = url.searchParams.get("status") ?? "";
  const topic = isTopic(topicParam) ? topicParam : "";
  const status = (SUBSCRIBER_STATUSES as readonly string[]).includes(statusParam) ? statusParam : "";
  const page = parsePage(url.searchParams.get("page"));
  const { rows, total } = await listSubscribers({ q, topic, status, page });
  const latest = await latestImport();
  return {
    counts,
    implied: await impliedConsentCounts(),
    lastImport: latest ? importView(latest) : null,
    consentRequests: await consentRequestState(getEnv().CONSENT_REQUESTS_PER_DAY),
    list: {
      q,
      topic,
      status,
      page,
      pages: pageCount(total, SUBSCRIBERS_PAGE_SIZE),
      total,
      rows: rows.map((r) => ({
        id: r.id,
        email: r.email,
        status: r.status as SubscriberStatus,
        topics: topicList(r.topics),
        source: r.source,
        since: staffDateTime(r.confirmed_at ?? r.created_at),
      })),
    },
  };
}

export default function Subscribers({ loaderData }: Route.ComponentProps) {
  const { counts, list } = loaderData;
  return (
    <AdminPage title="Subscribers" back={{ to: "/dashboard", label: "Dashboard" }}>
      <CountsSection
        counts={SUBSCRIBER_STATUSES.map((s) => ({ label: SUBSCRIBER_STATUS_LABELS[s], value: counts.byStatus[s] }))}
        columns="sm:grid-cols-4"
      >
        <p className="mt-3 text-sm text-muted">
          Confirmed, by topic: {SUBSCRIPTION_TOPICS.map((t) => `${TOPIC_LABELS[t]} ${counts.byTopic[t] ?? 0}`).join(" · ")}
        </p>
        {list && loaderData.implied ? (
          <p className="mt-1 text-sm text-muted">
            Of the confirmed, on implied consent (imported): {loaderData.implied.active} still mailable, {loaderData.implied.ended} ended
            (never mailed until they confirm).
          </p>
        ) : null}
      </CountsSection>
      {list ? (
        <>
          <SubscriberList list={list} />
          <ImportSection lastImport={loaderData.lastImport} />
          {loaderData.consentRequests ? <ConsentRequestSection state={loaderData.consentRequests} /> : null}
        </>
      ) : (
        <p className="text-muted">Owners and admins see the subscribers themselves.</p>
      )}
    </AdminPage>
  );
}

type List = NonNullable<Route.ComponentProps["loaderData"]["list"]>;

const TOPIC_OPTIONS = SUBSCRIPTION_TOPICS.map((t) => ({ value: t, label: TOPIC_LABELS[t] }));
const STATUS_OPTIONS = SUBSCRIBER_STATUSES.map((s) => ({ value: s, label: SUBSCRIBER_STATUS_LABELS[s] }));

function SubscriberList({ list }: { list: List }) {
  const pageLink = (p: number) =>
    `/dashboard/subscribers?${new URLSearchParams({
      ...(list.q ? { q: list.q } : {}),
      ...(list.topic ? { topic: list.topic } : {}),
      ...(list.status ? { status: list.status } : {}),
      ...(p > 1 ? { page: String(p) } : {}),
    })}`;
  return (
    <>
      <SearchForm
        name="Which subscribers to show"
        label="Search addresses"
        q={list.q}
        button="Show"
        after={
          <a href="/dashboard/subscribers/export" className={`${linkClass} ml-auto`} download>
            Export consent records (CSV)
          </a>
        }
      >
        <FilterSelect id="topic" label="Topic" value={list.topic} all="All topics" options={TOPIC_OPTIONS} />
        <FilterSelect id="status" label="Status" value={list.status} all="All" options={STATUS_OPTIONS} />
      </SearchForm>
      {list.rows.length === 0 ? (
        <p className="py-8 text-center text-muted">No subscribers match.</p>
      ) : (
        <ScrollRegion className="overflow-x-auto" label="Subscribers, table">
          <table className="w-full border border-line bg-white text-left text-sm">
            <caption className="sr-only">Subscribers ({list.total})</caption>
            <ColumnHeads names={["Address", "Status", "Topics", "Since"]} className="bg-soft" cellClassName="px-3 py-2" />
            <tbody className="divide-y divide-line">
              {list.rows.map((r) => (
                <tr key={r.id}>
                  <td className="min-w-40 px-3 py-2 wrap-anywhere">
                    <Link to={`/dashboard/subscribers/${r.id}`} className={linkClass}>
                      {r.email}
                    </Link>
                    {r.source === "import" ? <span className="ml-2 text-muted">(imported)</span> : null}
                  </td>
                  <td className="px-3 py-2">{SUBSCRIBER_STATUS_LABELS[r.status]}</td>
                  <td className="px-3 py-2">{r.topics}</td>
                  <td className="px-3 py-2">{r.since}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <Pager
        label="Pages of subscribers"
        page={list.page}
        pages={list.pages}
        total={list.total}
        pageLink={pageLink}
        back="Previous"
        on="Next"
      />
    </>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

function ImportSection({ lastImport }: { lastImport: LoaderData["lastImport"] }) {
  const [fileError, setFileError] = useState("");
  // A file over the limit is refused here, before it is sent (so nginx's own 413 page is never reached); the server checks again.
  const checkSize = (event: FormEvent<HTMLFormElement>) => {
    const input = event.currentTarget.querySelector<HTMLInputElement>('input[type="file"]');
    const file = input?.files?.[0];
    if (input && file && file.size > IMPORT_MAX_BYTES) {
      event.preventDefault();
      setFileError(IMPORT_TOO_LARGE);
      input.focus();
    } else setFileError("");
  };
  return (
    <RuledSection id="import-title" title="Import contacts">
      <p className="mt-2 max-w-prose text-muted">
        A CSV file whose first row names the columns. Each row needs evidence of consent (CASL): its kind, its date and its source or
        wording. A row without it is refused and listed below with its reason. Implied consent is kept with its end (two years after a
        business relationship, six months after an enquiry) and never mailed after it. The import sends nothing to anyone; asking for
        express consent is a separate step (below). At most {IMPORT_MAX_BYTES / 1024 / 1024} MB and{" "}
        {IMPORT_MAX_ROWS.toLocaleString("en-CA")} rows a file.
      </p>
      <ScrollRegion className="mt-4 overflow-x-auto" label="The CSV file's columns, table">
        <table className="w-full border border-line bg-white text-left text-sm">
          <caption className="px-3 py-2 text-left font-semibold">The CSV file’s columns</caption>
          <ColumnHeads names={["Column", "Needed", "What goes in it"]} className="bg-soft" cellClassName="px-3 py-2" />
          <tbody className="divide-y divide-line">
            {IMPORT_COLUMNS.map(([name, needed, what]) => (
              <tr key={name}>
                <td className="px-3 py-2 font-mono">{name}</td>
                <td className="px-3 py-2">{needed}</td>
                <td className="px-3 py-2">{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p className="mt-2 text-sm text-muted wrap-anywhere">
        Example: <code>email,consent,consent date,source,implied basis</code> then{" "}
        <code>ana@client.example,implied,2026-03-02,Retainer for file 2026-114,business relationship</code>
      </p>
      <Form
        method="post"
        action="/dashboard/subscribers/import"
        encType="multipart/form-data"
        className="mt-4 space-y-4"
        onSubmit={checkSize}
      >
        <div>
          <label htmlFor="import-file" className={labelClass}>
            CSV file
          </label>
          <input
            id="import-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            className="mt-2 block max-w-full"
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? "import-file-error" : undefined}
            onChange={() => setFileError("")}
          />
          {fileError ? (
            <p id="import-file-error" role="alert" className="mt-1 font-semibold text-error">
              {fileError}
            </p>
          ) : null}
        </div>
        <fieldset>
          <legend className={labelClass}>Topics for the imported subscribers</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {SUBSCRIPTION_TOPICS.map((t) => (
              <label key={t} className="inline-flex items-center gap-2">
                <input type="checkbox" name="topics" value={t} className="size-4" /> {TOPIC_LABELS[t]}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className={btnPrimary}>
          Upload and import
        </button>
      </Form>
      {lastImport ? <ImportProgress initial={lastImport} /> : null}
    </RuledSection>
  );
}

function ConsentRequestSection({ state }: { state: NonNullable<LoaderData["consentRequests"]> }) {
  // Asked for and within today's allowance: the consent-requests job sends them within a minute.
  const goingNow = Math.min(state.waiting, Math.max(0, state.perDay - state.sentToday));
  const roomToday = Math.max(0, state.perDay - state.sentToday - state.waiting);
  const today = Math.min(state.askable, roomToday);
  return (
    <RuledSection id="consent-title" title="Ask imported contacts for consent">
      <p className="mt-2 max-w-prose">
        <strong>A request for consent sent by e-mail is itself a commercial electronic message under CASL.</strong> It is sent only to
        imported addresses whose implied consent has not ended, once each. If they confirm, their consent becomes express and no longer
        ends.
      </p>
      <p className="mt-2 text-muted">
        At most {state.perDay.toLocaleString("en-CA")} requests go out a day; past that, the rest wait for the next day. Sent today:{" "}
        {state.sentToday.toLocaleString("en-CA")}.{goingNow ? ` Going out now: ${goingNow.toLocaleString("en-CA")}.` : ""}
        {state.waiting > goingNow ? ` Waiting for the next days: ${(state.waiting - goingNow).toLocaleString("en-CA")}.` : ""}
      </p>
      {state.askable ? (
        <Form method="post" action="/dashboard/subscribers/consent-requests" className="mt-4 space-y-4">
          <p data-consent-requests={state.askable}>
            {state.askable.toLocaleString("en-CA")} imported addresses will be asked for consent:{" "}
            {today === state.askable
              ? "all of them today."
              : `${today.toLocaleString("en-CA")} today, the other ${(state.askable - today).toLocaleString("en-CA")} on the following days.`}
          </p>
          <label className="flex items-start gap-2">
            <input type="checkbox" name="confirm" value="yes" required className="mt-1 size-4 shrink-0" />
            <span>
              I understand that each request is a commercial message, and I want to ask these {state.askable.toLocaleString("en-CA")}{" "}
              addresses for consent.
            </span>
          </label>
          <button type="submit" className={btnPrimary}>
            Send {state.askable.toLocaleString("en-CA")} requests for consent
          </button>
        </Form>
      ) : (
        <p className="mt-4">
          Nobody else can be asked: every imported address on implied consent has been asked, or its consent has ended.
        </p>
      )}
    </RuledSection>
  );
}
