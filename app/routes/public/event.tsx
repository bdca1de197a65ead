/**
 * An event's page (/event/:slug; issue 45): details, speakers, CPD, places,
 * the recording after the event, and the registration form (a plain POST to
 * this page, working with JavaScript off). The page holds the form, so it is
 * shared for a few seconds at most (the timing token, decision 0009); the
 * answer to a POST is never stored.
 */
import { CalendarPlus } from "lucide-react";
import { createContext, data, redirect, RouterContextProvider } from "react-router";
import type { Route } from "./+types/event";
import { countTaken, findMovedEventSlug, getEventBySlug, listEventSpeakers, registrationOpen, type Event } from "~/.server/db/events";
import { sanitizeArticleHtml } from "~/.server/content/sanitize";
import { PREVIEW_BANNER, PREVIEW_CACHE_CONTROL, previewEvent } from "~/.server/content/preview";
import { PreviewBanner } from "~/components/public/preview-banner";
import { registrationAction } from "~/.server/events/registration-form.server";
import { captionsTranscript } from "~/.server/events/recordings";
import { getEnv } from "~/.server/env";
import { FORM_PAGE_CACHE_CONTROL, issueFormToken } from "~/.server/public-forms/spam-defence";
import { publicMeta } from "~/components/public/meta";
import { PublicRouteError } from "~/components/public/public-error";
import { RegistrationForm } from "~/components/public/registration-form";
import { REGISTRATION_MSG, REGISTRATION_SENT_PARAM, REGISTRATION_SENT_VALUE } from "~/lib/forms/registration";
import {
  accreditationText,
  cpdText,
  durationText,
  eventDateText,
  eventPath,
  eventTimeText,
  FORMAT_LABELS,
  placesText,
  practiceAreaLabel,
  RECORDING_NOTE,
  venueText,
  WEBINAR_LOCATION,
  type EventFormat,
} from "~/lib/events";
import { PRACTICE_PAGES, type PracticeArea } from "~/lib/practice";
import { isAudioRecording, isCaptionsKey, isRecordingKey, recordingPath } from "~/lib/recordings";
import { breadcrumbJsonLd, eventJsonLd } from "~/lib/structured-data";
import type { RouteHandle } from "~/lib/route-handle";
import { BackLink } from "~/components/public/back-link";
import { ArticleBanner } from "~/components/public/page-banner";

/**
 * The page cache keeps this page (lib/route-handle.ts) a few seconds (it holds the form); the one query parameter it
 * reads is `registration` (`=sent`: the page a valid registration is redirected to). Visit statistics count it by its path.
 */
export const handle = { pageCache: { params: [REGISTRATION_SENT_PARAM] }, statistics: "path" } satisfies RouteHandle;

const NOT_FOUND = "No Event Found";

const isEventPreview = (request: Request) => new URL(request.url).pathname.startsWith("/preview/event/");

/**
 * The event the action read, for the loaders React Router runs after it to
 * render the answer (a POST's page): the registration changes no column of
 * the event's row, so reading it again would only cost a round trip.
 */
const postedEvent = createContext<Event | null>(null);

async function findEvent(request: Request, slug: string, context: Route.LoaderArgs["context"]) {
  const posted = context instanceof RouterContextProvider ? context.get(postedEvent) : null;
  if (posted) return posted;
  // A staff preview (any state, never cached), or the public page (published only).
  const preview = await previewEvent(request, slug, { message: NOT_FOUND });
  if (preview) return preview;
  const event = await getEventBySlug(slug);
  if (event) return event;
  // An old link (other case or spelling): 301 to the current page.
  const moved = await findMovedEventSlug(slug);
  if (moved) throw redirect(eventPath(moved), 301);
  throw data({ message: NOT_FOUND }, { status: 404 });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const event = await findEvent(request, params.slug, context);
  const preview = isEventPreview(request);
  const [speakers, taken] = await Promise.all([listEventSpeakers(event.id), countTaken(event.id)]);
  const now = new Date();
  const past = event.ends_at < now;
  // A preview shows no registration form (it posts to the public page, which knows only published events).
  const open = !preview && registrationOpen(event, now);
  const placesLeft = event.capacity === null ? null : Math.max(0, event.capacity - taken);
  const site = getEnv().publicUrl;
  const description = event.summary || event.title;
  const jsonLd = [
    eventJsonLd(site, { ...event, description, placesLeft, registrationOpen: open, performers: speakers }),
    breadcrumbJsonLd(site, [
      { name: "Home", path: "/" },
      { name: "Events & Webinars", path: "/events" },
      { name: event.title, path: eventPath(event.slug) },
    ]),
  ];
  // An uploaded recording's captions (WebVTT): the video's track, and their words as the page's transcript.
  const captioned = past && isRecordingKey(event.recording_url) && isCaptionsKey(event.recording_captions);
  const transcript = captioned ? await captionsTranscript(event.recording_captions) : null;
  const page = {
    preview: preview ? PREVIEW_BANNER : null,
    token: issueFormToken(),
    // After a valid registration (303 from the action): the thanks in place of the form.
    registered: !preview && new URL(request.url).searchParams.get(REGISTRATION_SENT_PARAM) === REGISTRATION_SENT_VALUE,
    jsonLd: preview ? [] : jsonLd,
    event: {
      slug: event.slug,
      title: event.title,
      summary: event.summary,
      description,
      html: sanitizeArticleHtml(event.copy),
      date: eventDateText(event.starts_at),
      time: eventTimeText(event.starts_at),
      duration: durationText(event.starts_at, event.ends_at),
      format: FORMAT_LABELS[event.format as EventFormat] ?? event.format,
      webinar: event.format === "webinar",
      hybrid: event.format === "hybrid",
      venue: venueText(event),
      area: event.practice_area,
      areaLabel: practiceAreaLabel(event.practice_area),
      cpd: cpdText(event),
      accreditation: accreditationText(event),
      places: placesText(event.capacity, taken),
      full: placesLeft !== null && placesLeft <= 0,
      open,
      past,
      cancelled: event.event_status === "cancelled",
      moved: event.event_status === "rescheduled" && event.previous_starts_at ? `${eventDateText(event.previous_starts_at)}, ${eventTimeText(event.previous_starts_at)}` : null,
      recording: past ? (isRecordingKey(event.recording_url) ? recordingPath(event.recording_url) : event.recording_url) : "",
      // An uploaded file plays on the page (server/recordings.ts serves it with Range, once the event is over).
      recordingFile: past && isRecordingKey(event.recording_url) ? (isAudioRecording(event.recording_url) ? "audio" : "video") : null,
      captions: captioned ? recordingPath(event.recording_captions) : null,
      transcript: transcript?.length ? transcript : null,
      speakers,
    },
  };
  return preview ? data(page, { headers: { "Cache-Control": PREVIEW_CACHE_CONTROL } }) : page;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const event = await getEventBySlug(params.slug);
  if (!event) {
    const moved = await findMovedEventSlug(params.slug);
    if (moved) return redirect(eventPath(moved), 308);
    return data(
      { outcome: "closed" as const, status: { tone: "error" as const, text: `${NOT_FOUND}. ${REGISTRATION_MSG.closed}` }, token: issueFormToken() },
      { status: 404, headers: { "Cache-Control": "private, no-store" } },
    );
  }
  context.set(postedEvent, event);
  return registrationAction(request, context, event);
}

/** The answer to a POST: the action's Cache-Control (private, no-store); a preview: never stored. A GET: shared for a few seconds at most. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return { "Cache-Control": actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control") ?? FORM_PAGE_CACHE_CONTROL };
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  if (!loaderData) return publicMeta(matches, { title: NOT_FOUND, description: NOT_FOUND, path: `/event/${params.slug}`, noindex: true });
  const e = loaderData.event;
  return publicMeta(matches, {
    title: e.title,
    description: `${e.date}, ${e.time}. ${e.description}`.slice(0, 300),
    path: eventPath(e.slug),
    jsonLd: loaderData.jsonLd,
    noindex: loaderData.preview ? true : undefined,
  });
}

const linkClass = "font-semibold text-accent underline underline-offset-4";

export default function EventPage({ loaderData, actionData }: Route.ComponentProps) {
  const e = loaderData.event;
  const state =
    actionData ??
    (loaderData.registered
      ? { outcome: "sent" as const, status: { tone: "success" as const, text: REGISTRATION_MSG.sent }, token: loaderData.token }
      : undefined);
  const practice = (PRACTICE_PAGES as Record<string, { path: string } | undefined>)[e.area as PracticeArea];
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      {loaderData.preview ? <PreviewBanner text={loaderData.preview} /> : null}
      <article>
        <ArticleBanner back={{ href: "/events", text: "Events & Webinars" }} kicker={[e.format, e.areaLabel]} title={e.title}>
          {e.cancelled ? <p className="mt-5 text-lg font-semibold text-white">This event is cancelled.</p> : null}
          {e.moved ? <p className="mt-5 text-white/85">This event has moved. It was first planned for {e.moved}.</p> : null}
          <p className="mt-5 text-lg text-white/90">
            {e.date}, {e.time}
          </p>
        </ArticleBanner>
        <div className="mx-auto max-w-3xl px-5 py-12">
          <dl className="grid gap-x-8 gap-y-4 border-b border-line pb-8 sm:grid-cols-[10rem_1fr]">
            <dt className="font-semibold">When</dt>
            <dd>
              {e.date}, {e.time} ({e.duration})
            </dd>
            <dt className="font-semibold">Format</dt>
            <dd>{e.format}</dd>
            <dt className="font-semibold">Where</dt>
            <dd>
              {e.webinar ? WEBINAR_LOCATION : e.venue}
              {e.hybrid ? <span className="block text-muted">Or by webinar: the link is e-mailed to registered attendees.</span> : null}
            </dd>
            <dt className="font-semibold">Practice area</dt>
            <dd>
              {practice ? (
                <a href={practice.path} className={linkClass}>
                  {e.areaLabel}
                </a>
              ) : (
                e.areaLabel
              )}
            </dd>
            {e.speakers.length ? (
              <>
                <dt className="font-semibold">Speakers</dt>
                <dd>
                  <ul className="space-y-1">
                    {e.speakers.map((s) => (
                      <li key={`${s.slug ?? ""}${s.name}`}>
                        {s.slug ? (
                          <a href={`/lawyer/${encodeURIComponent(s.slug)}`} className={linkClass}>
                            {s.name}
                          </a>
                        ) : (
                          s.name
                        )}
                        {s.title ? <span className="text-muted">, {s.title}</span> : null}
                        {s.organisation ? <span className="text-muted">, {s.organisation}</span> : null}
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            ) : null}
            {e.cpd ? (
              <>
                <dt className="font-semibold">CPD</dt>
                <dd>
                  {e.cpd}
                  {e.accreditation ? <span className="mt-1 block text-sm text-muted">{e.accreditation}</span> : null}
                </dd>
              </>
            ) : null}
            {e.places && !e.past && !e.cancelled ? (
              <>
                <dt className="font-semibold">Places</dt>
                <dd>{e.places}</dd>
              </>
            ) : null}
          </dl>
          <p className="mt-6">
            <a href={`${eventPath(e.slug)}.ics`} className="inline-flex items-center gap-2 font-semibold text-accent underline underline-offset-4" data-no-prefetch="">
              <CalendarPlus aria-hidden="true" className="h-4 w-4" />
              Add to my calendar (.ics)
            </a>
          </p>
          {e.summary ? <p className="mt-10 text-xl leading-8 text-ink">{e.summary}</p> : null}
          <div className="prose-article mt-6 text-lg text-ink/90" dangerouslySetInnerHTML={{ __html: e.html }} />
          {e.recording ? (
            <section aria-labelledby="recording-title" className="mt-12 border-l-4 border-brass bg-soft px-5 py-4">
              <h2 id="recording-title" className="text-2xl font-semibold">
                Recording
              </h2>
              {e.recordingFile === "audio" ? (
                // eslint-disable-next-line jsx-a11y/media-has-caption -- an audio recording's alternative is its transcript, below it (WCAG 1.2.1).
                <audio controls preload="metadata" src={e.recording} aria-label={`Recording of ${e.title}`} className="mt-3 w-full" />
              ) : e.recordingFile === "video" && e.captions ? (
                <video controls preload="metadata" playsInline src={e.recording} aria-label={`Recording of ${e.title}`} className="mt-3 aspect-video w-full bg-ink">
                  <track kind="captions" src={e.captions} srcLang="en" label="English" default />
                </video>
              ) : e.recordingFile === "video" ? (
                // eslint-disable-next-line jsx-a11y/media-has-caption -- no captions file was given for this recording (the dashboard says so).
                <video controls preload="metadata" playsInline src={e.recording} aria-label={`Recording of ${e.title}`} className="mt-3 aspect-video w-full bg-ink" />
              ) : null}
              {e.transcript ? (
                <details className="mt-3">
                  <summary className="cursor-pointer font-semibold text-accent underline underline-offset-4">Transcript</summary>
                  <div className="mt-2 space-y-2 text-ink">
                    {e.transcript.map((line, i) => (
                      <p key={i}>{line}</p>
                    ))}
                  </div>
                </details>
              ) : null}
              <p className="mt-2">
                <a href={e.recording} className={linkClass}>
                  {e.recordingFile ? `Open or download the recording of ${e.title}` : `Watch the recording of ${e.title}`}
                </a>
              </p>
              <p className="mt-2 text-sm text-ink">{RECORDING_NOTE}</p>
            </section>
          ) : null}
          {e.open ? (
            <section aria-label="Registration" className="mt-12 border-t border-line pt-10">
              {e.full && state?.outcome !== "sent" ? <p className="mb-4 text-lg font-semibold">{e.places}</p> : null}
              <RegistrationForm action={eventPath(e.slug)} state={state} token={state?.token ?? loaderData.token} full={e.full} />
            </section>
          ) : !e.past && !e.cancelled ? (
            <p className="mt-12 border-t border-line pt-10 text-lg">Registration for this event is closed.</p>
          ) : null}
          <BackLink href="/events" place="foot">
            All events &amp; webinars
          </BackLink>
        </div>
      </article>
    </main>
  );
}

export function ErrorBoundary() {
  return <PublicRouteError notFound={{ title: NOT_FOUND, message: "The event may have been renamed or removed. Our events page lists every event." }} />;
}
