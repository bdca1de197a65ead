import type { EventCardView } from "~/lib/events";
import { eventPath } from "~/lib/events";

/** One event: format and practice area, the title linked to its page, the date and time in the firm's zone (ET), the summary. */
export function EventCard({ event, headingLevel = 3 }: { event: EventCardView; headingLevel?: 3 | 4 }) {
  const Heading = headingLevel === 3 ? "h3" : "h4";
  return (
    <li className="flex flex-col border border-line bg-white p-6">
      <p className="text-xs font-semibold tracking-[0.18em] text-accent uppercase">
        {event.format} · {event.area}
      </p>
      <Heading className="mt-3 text-xl leading-snug font-semibold">
        <a href={eventPath(event.slug)} className="hover:text-accent hover:underline">
          {event.title}
        </a>
      </Heading>
      <p className="mt-2 text-sm text-muted">
        {event.cancelled ? <strong className="text-error">Cancelled: </strong> : null}
        {event.date}, {event.time}
      </p>
      {event.summary ? <p className="mt-3 text-ink/90">{event.summary}</p> : null}
    </li>
  );
}

/** Event cards in a grid (/events, a lawyer's profile, a practice page). `narrow`: two columns at most (a profile's text column). */
export function EventCardList({ events, headingLevel = 3, narrow = false }: { events: EventCardView[]; headingLevel?: 3 | 4; narrow?: boolean }) {
  return (
    <ul className={`mt-6 grid gap-6 ${narrow ? "sm:grid-cols-2" : "md:grid-cols-2 lg:grid-cols-3"}`}>
      {events.map((e) => (
        <EventCard key={e.slug} event={e} headingLevel={headingLevel} />
      ))}
    </ul>
  );
}
