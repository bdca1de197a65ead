/**
 * /dashboard/events/:id/registrations (issue 45): an event's registrants,
 * for owners, admins and the events coordinator (permission
 * "event-registrations": their personal data). The counts by status; the
 * list (status, name, e-mail, organisation, title, accessibility needs,
 * when they registered) searched by name, e-mail or organisation and
 * filtered by status, kept in the URL (a GET form: works without
 * JavaScript), 50 a page; the CSV export of what the search selects. Once
 * the event has started: mark who attended (and undo), or import the
 * webinar platform's attendance CSV; once it has ended: send each attendee
 * their certificate of attendance (once each; on the job queue, its
 * progress shown here), and download anyone's.
 * No entry of its own in the navigation: the event's edit screen links here.
 */
import { Download, FileUp, Mail } from "lucide-react";
import { listSearch } from "~/lib/list-search";
import { data, Form, useLocation } from "react-router";
import type { Route } from "./+types/event-registrations";
import { registrationsAction } from "~/.server/admin/event-registrations.server";
import { getEventById } from "~/.server/db/event-editing";
import { certificatesDue, listEventRegistrations, registrationCounts, REGISTRATIONS_PAGE_SIZE } from "~/.server/db/event-registrations";
import { getEnv } from "~/.server/env";
import { certificateProgress } from "~/.server/events/certificate-job";
import { servicesContext } from "~/.server/http/request-context";
import { parseId } from "~/.server/http/form-post";
import { AdminPage } from "~/components/admin/admin-page";
import { RuledSection } from "~/components/admin/ruled-section";
import { FilterSelect } from "~/components/admin/filter-select";
import { SearchForm } from "~/components/admin/search-form";
import { CountsSection } from "~/components/admin/counts-section";
import { ProgressLines } from "~/components/admin/progress-lines";
import { useProgress } from "~/components/admin/use-progress";
import { btnPrimary, btnSecondary, labelClass, linkClass } from "~/components/admin/styles";
import { Pagination } from "~/components/public/pagination";
import { ScrollRegion } from "~/components/scroll-region";
import { certificateProgressText, certificateSending, type CertificateProgress } from "~/lib/certificate-progress";
import { staffDateTime } from "~/lib/dates";
import {
  eventDateText,
  eventTimeText,
  FORMAT_LABELS,
  REGISTRATION_STATUSES,
  type EventFormat,
  type RegistrationStatus,
} from "~/lib/events";
import { pageCount, parsePage } from "~/lib/pagination";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "event-registrations" } satisfies RouteHandle;

const STATUS_LABELS: Record<RegistrationStatus, string> = {
  registered: "Registered",
  waiting: "Waiting list",
  cancelled: "Cancelled",
  attended: "Attended",
};

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Registrations: ${loaderData?.event.title ?? "Event"} | Dashboard` }, { name: "robots", content: "noindex, nofollow" }];
}

/** The screen's address with its search, status and page (page 1 and empty values left out). */
function registrationsHref(eventId: number, list: { q: string; status: string }, page = 1, suffix = ""): string {
  const params = new URLSearchParams({
    ...(list.q ? { q: list.q } : {}),
    ...(list.status ? { status: list.status } : {}),
    ...(page > 1 ? { page: String(page) } : {}),
  }).toString();
  return `/dashboard/events/${eventId}/registrations${suffix}${params ? `?${params}` : ""}`;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const event = id ? await getEventById(id, { withTrashed: true }) : undefined;
  if (!event) throw data("Not found", { status: 404 });
  const url = new URL(request.url);
  const q = listSearch(url.searchParams.get("q"));
  const statusParam = url.searchParams.get("status") ?? "";
  const status = (REGISTRATION_STATUSES as readonly string[]).includes(statusParam) ? (statusParam as RegistrationStatus) : undefined;
  const requested = parsePage(url.searchParams.get("page"));
  const [counts, due, sending] = await Promise.all([
    registrationCounts(event.id),
    certificatesDue(event.id),
    certificateProgress(context.get(servicesContext).jobQueue, event.id),
  ]);
  let { rows, total } = await listEventRegistrations({ eventId: event.id, q, status, page: requested });
  const pages = pageCount(total, REGISTRATIONS_PAGE_SIZE);
  const page = Math.min(requested, pages);
  if (page !== requested) ({ rows, total } = await listEventRegistrations({ eventId: event.id, q, status, page }));
  const now = new Date();
  const retentionDays = getEnv().EVENT_REGISTRANT_RETENTION_DAYS;
  return {
    event: {
      id: event.id,
      title: event.title,
      when: `${eventDateText(event.starts_at)}, ${eventTimeText(event.starts_at)}`,
      format: FORMAT_LABELS[event.format as EventFormat] ?? event.format,
      cancelled: event.event_status === "cancelled",
      started: now >= event.starts_at,
      ended: now >= event.ends_at,
      erasedOn: eventDateText(new Date(event.ends_at.getTime() + retentionDays * 86_400_000)),
    },
    counts,
    certificatesDue: due.length,
    certificates: sending,
    q,
    status: status ?? "",
    page,
    pages,
    total,
    rows: rows.map((r) => ({
      id: r.id,
      status: r.status as RegistrationStatus,
      name: r.name,
      email: r.email,
      organisation: r.organisation,
      jobTitle: r.job_title,
      needs: r.accessibility_needs,
      registered: staffDateTime(r.created_at),
      certificateSent: r.certificate_sent_at ? staffDateTime(r.certificate_sent_at) : null,
    })),
  };
}

export function action({ request, context, params }: Route.ActionArgs) {
  return registrationsAction(request, context, parseId(params.id));
}

type Data = Route.ComponentProps["loaderData"];

export default function EventRegistrations({ loaderData }: Route.ComponentProps) {
  const { event, counts, q, status, page, pages, total, rows } = loaderData;
  const list = { q, status };
  const here = registrationsHref(event.id, list, page);
  const all = REGISTRATION_STATUSES.reduce((n, s) => n + counts[s], 0);
  return (
    <AdminPage title={`Registrations: ${event.title}`} back={{ to: "/dashboard/events", label: "Events" }}>
      <p className="-mt-3 mb-6 text-lg">
        {event.when} · {event.format}
        {event.cancelled ? <strong className="ml-2 text-error">Cancelled</strong> : null}
      </p>

      <CountsSection
        counts={[...REGISTRATION_STATUSES.map((s) => ({ label: STATUS_LABELS[s], value: counts[s] })), { label: "All", value: all }]}
        columns="sm:grid-cols-5"
      >
        <p className="mt-3 text-sm text-muted">
          {counts.erased
            ? `The personal data of ${counts.erased} ${counts.erased === 1 ? "registrant were" : "registrants were"} erased, as planned after the event; they are still counted above.`
            : `Registrants' personal data are erased automatically on ${event.erasedOn}.`}
        </p>
      </CountsSection>

      <SearchForm
        name="Which registrations to show"
        label="Search by name, e-mail or organisation"
        q={q}
        after={
          <a href={registrationsHref(event.id, list, 1, "/export")} className={`${linkClass} inline-flex items-center gap-1`} download>
            <Download aria-hidden="true" className="size-4" /> Export {q || status ? "these registrations" : "all registrations"} (CSV)
          </a>
        }
      >
        <FilterSelect
          id="status"
          label="Status"
          value={status}
          all="All"
          options={REGISTRATION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        />
      </SearchForm>

      <p role="status" className="mb-3 text-muted">
        {total === 1 ? "1 registration" : `${total} registrations`}
        {q || status ? " match" : ""}
        {pages > 1 ? `, page ${page} of ${pages}` : ""}.
      </p>

      {rows.length === 0 ? (
        <p className="py-8 text-center text-muted">{q || status ? "No registrations match." : "Nobody has registered yet."}</p>
      ) : (
        <RegistrationTable data={loaderData} here={here} />
      )}
      <Pagination page={page} pageCount={pages} href={(p) => registrationsHref(event.id, list, p)} />

      {event.started ? <AttendanceImport list={list} page={page} /> : null}
      {event.ended ? (
        <Certificates eventId={event.id} due={loaderData.certificatesDue} sending={loaderData.certificates} list={list} page={page} />
      ) : (
        <p className="mt-10 border-t border-line pt-6 text-muted">
          {event.started
            ? "Certificates of attendance can be sent once the event has ended."
            : "Attendance can be marked, and certificates of attendance sent, once the event has started and ended."}
        </p>
      )}
    </AdminPage>
  );
}

/** The search, status and page, posted with each form so the screen comes back to them. */
function BackTo({ list, page }: { list: { q: string; status: string }; page: number }) {
  return (
    <>
      {list.q ? <input type="hidden" name="back_q" value={list.q} /> : null}
      {list.status ? <input type="hidden" name="back_status" value={list.status} /> : null}
      {page > 1 ? <input type="hidden" name="back_page" value={page} /> : null}
    </>
  );
}

/** The registrations table's columns after the box to choose a row (and before "Certificate", once the event has ended). */
const REGISTRATION_COLUMNS = ["Status", "Name and e-mail", "Organisation", "Title", "Accessibility needs", "Registered"];

function RegistrationTable({ data, here }: { data: Data; here: string }) {
  const { event, rows, q, status, page } = data;
  const markable = event.started && rows.some((r) => r.status === "registered" || r.status === "attended");
  // A new form after each answer: the boxes ticked for the last change are cleared.
  const { key } = useLocation();
  return (
    <Form key={key} method="post" action={here} aria-label="Attendance">
      <BackTo list={{ q, status }} page={page} />
      <ScrollRegion className="overflow-x-auto rounded border border-line bg-white" label="Registrations, table">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Registrations for {event.title}</caption>
          <thead className="border-b border-line bg-soft">
            <tr>
              {markable ? (
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">Choose</span>
                </th>
              ) : null}
              {[...REGISTRATION_COLUMNS, ...(event.ended ? ["Certificate"] : [])].map((name) => (
                <th key={name} scope="col" className="px-3 py-2">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((r) => (
              <tr key={r.id} className="align-top">
                {markable ? (
                  <td className="px-3 py-2">
                    {r.status === "registered" || r.status === "attended" ? (
                      <input
                        type="checkbox"
                        name="id"
                        value={r.id}
                        aria-label={`Choose ${r.name}`}
                        className="size-5"
                        id={`choose-${r.id}`}
                      />
                    ) : null}
                  </td>
                ) : null}
                <td className="px-3 py-2 whitespace-nowrap">{STATUS_LABELS[r.status]}</td>
                <th scope="row" className="min-w-40 px-3 py-2 text-left font-normal wrap-anywhere">
                  <span className="block font-semibold text-ink">{r.name}</span>
                  <span className="block text-muted">{r.email}</span>
                </th>
                <td className="min-w-24 px-3 py-2 wrap-break-word">{r.organisation}</td>
                <td className="min-w-24 px-3 py-2 wrap-break-word">{r.jobTitle}</td>
                <td className="min-w-28 px-3 py-2 wrap-break-word">{r.needs || <span className="text-muted">None given</span>}</td>
                <td className="min-w-28 px-3 py-2">{r.registered}</td>
                {event.ended ? (
                  <td className="px-3 py-2">
                    {r.status === "attended" ? (
                      <>
                        <a
                          href={`/dashboard/events/${event.id}/registrations/${r.id}/certificate.pdf`}
                          className={linkClass}
                          aria-label={`Download (PDF): certificate of ${r.name}`}
                          download
                        >
                          Download (PDF)
                        </a>
                        <span className="mt-1 block text-muted">{r.certificateSent ? `Sent ${r.certificateSent}` : "Not sent yet"}</span>
                      </>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {markable ? (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <button type="submit" name="intent" value="attend" className={btnPrimary}>
            Mark as attended
          </button>
          <button type="submit" name="intent" value="undo" className={btnSecondary}>
            Undo: back to registered
          </button>
          <p className="basis-full text-sm text-muted">
            Tick the people who attended, then press Mark as attended. To correct a mistake, tick them and press Undo.
          </p>
        </div>
      ) : null}
    </Form>
  );
}

function AttendanceImport({ list, page }: { list: { q: string; status: string }; page: number }) {
  return (
    <RuledSection id="import-title" title="Import attendance">
      <p className="mt-2 text-muted">
        The webinar platform&apos;s attendance report as a CSV file (Zoom, Teams, Webex…). Its e-mail column is matched to the
        registrations, whatever the capitals; each registered person found is marked as attended. You are told which addresses matched
        nobody.
      </p>
      <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-4" aria-labelledby="import-title">
        <input type="hidden" name="intent" value="import" />
        <BackTo list={list} page={page} />
        <div className="min-w-0">
          <label htmlFor="attendance-file" className={labelClass}>
            Attendance CSV file
          </label>
          <input id="attendance-file" name="file" type="file" accept=".csv,text/csv,text/plain" className="mt-2 block max-w-full" />
        </div>
        <button type="submit" className={btnSecondary}>
          <FileUp aria-hidden="true" className="size-4" /> Import attendance
        </button>
      </Form>
    </RuledSection>
  );
}

function Certificates({
  eventId,
  due,
  sending,
  list,
  page,
}: {
  eventId: number;
  due: number;
  sending: CertificateProgress | null;
  list: { q: string; status: string };
  page: number;
}) {
  return (
    <RuledSection id="certificates-title" title="Certificates of attendance">
      <p className="mt-2 text-muted">
        Each attendee is e-mailed a one-page PDF once: the program, its date and time, the CPD hours by kind and the firm&apos;s details as
        provider, which a lawyer keeps for a Law Society of Ontario audit.{" "}
        {due === 0
          ? "Nobody is waiting for one."
          : due === 1
            ? "1 attendee has not been sent one yet."
            : `${due} attendees have not been sent one yet.`}
      </p>
      {sending ? <CertificateSending key={sending.jobId} eventId={eventId} initial={sending} /> : null}
      <Form method="post" className="mt-4" aria-labelledby="certificates-title">
        <input type="hidden" name="intent" value="certificates" />
        <BackTo list={list} page={page} />
        <button type="submit" className={btnPrimary} disabled={due === 0}>
          <Mail aria-hidden="true" className="size-4" /> Send certificates
        </button>
      </Form>
    </RuledSection>
  );
}

/** The last sending's progress: refreshed while it goes (without JavaScript, a reload shows where it is). */
function CertificateSending({ eventId, initial }: { eventId: number; initial: CertificateProgress }) {
  const progress = useProgress({
    initial,
    url: `/dashboard/events/${eventId}/registrations/certificates`,
    select: (data: { progress: CertificateProgress | null }) => (data.progress?.jobId === initial.jobId ? data.progress : undefined),
    going: certificateSending,
  });
  const { current } = progress;
  const failed = current.status === "failed" || current.status === "retrying";
  return (
    <div
      className={`mt-4 rounded border bg-white p-4 ${failed ? "border-error" : "border-line"}`}
      data-certificates-status={current.status}
    >
      <ProgressLines
        progress={progress}
        text={certificateProgressText(current)}
        bar={{ done: current.sent, total: current.total, label: "Certificates sent" }}
        error={failed}
      />
    </div>
  );
}
