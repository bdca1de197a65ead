/**
 * JSON-LD (schema.org) for search engines, built from the firm's identity
 * (app/config/firm.ts) and the page's data. Pure: the loaders call these with
 * the site's base URL (PUBLIC_URL) so every URL is absolute; the page's `meta`
 * puts the result in the head as `<script type="application/ld+json">`
 * (React Router escapes `<`, `>` and `&` inside it as \u003c…).
 *
 * Types: `LegalService` (home), `Person` (lawyer pages: with `knowsLanguage`,
 * `alumniOf`, `memberOf` and `hasCredential` from the profile's credentials), `NewsArticle` /
 * `BlogPosting` (posts), `Event` (events) and `BreadcrumbList` (pages with a trail).
 */
import { FIRM } from "~/config/firm";
import { isoWithOffset } from "./firm-time";
import { hasImage } from "./images";
import type { VenueInput } from "./events";
import { PRACTICE_AREAS, PRACTICE_PAGES, type PracticeArea } from "./practice";
import { spokenLanguages, type Admission, type Education } from "./profile";
import { DEFAULT_SOCIAL_IMAGE, SOCIAL_IMAGE_HEIGHT, SOCIAL_IMAGE_WIDTH, socialImagePath } from "./social";

export type JsonLd = { "@context"?: "https://schema.org"; "@type": string; [key: string]: unknown };

const CONTEXT = "https://schema.org" as const;
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"] as const;

function base(siteUrl: string): string {
  return siteUrl.replace(/\/+$/, "");
}

function abs(siteUrl: string, path: string): string {
  return `${base(siteUrl)}${path.startsWith("/") ? path : `/${path}`}`;
}

/** "+1-416-555-0142" from the firm's E.164 number (with " ext. N" when given). */
export function firmTelephone(extension?: number | string | null): string {
  const digits = FIRM.phoneE164.replace(/\D/g, "");
  const national = digits.slice(-10);
  const phone = `+${digits.slice(0, -10)}-${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}`;
  const ext = extension === null || extension === undefined ? "" : String(extension).trim();
  return ext ? `${phone} ext. ${ext}` : phone;
}

function faxNumber(): string {
  const national = FIRM.fax.replace(/\D/g, "").slice(-10);
  return `+1-${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}`;
}

type Clock = { minutes: number; meridiem: "am" | "pm" | null };

function parseClock(text: string): Clock | null {
  const m = /^\s*(\d{1,2})(?:\s*[:.h]\s*(\d{2}))?\s*(a\.?\s*m\.?|p\.?\s*m\.?)?\s*$/i.exec(text);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = m[2] ? Number(m[2]) : 0;
  if (hour > 24 || minute > 59) return null;
  const meridiem = m[3] ? (m[3].toLowerCase().startsWith("a") ? "am" : "pm") : null;
  if (meridiem && (hour < 1 || hour > 12)) return null;
  let h = hour;
  if (meridiem === "am" && h === 12) h = 0;
  if (meridiem === "pm" && h < 12) h += 12;
  return { minutes: (h % 24) * 60 + minute, meridiem };
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * The hours row's free text as 24-hour times: "9:00" / "5:00" -> "09:00" /
 * "17:00". Without am/pm, business hours are assumed: an end that is not
 * after the start is in the afternoon. Null when either time cannot be read.
 */
export function openingHours(startText: string, endText: string): { opens: string; closes: string } | null {
  const start = parseClock(startText);
  const end = parseClock(endText);
  if (!start || !end) return null;
  let closes = end.minutes;
  if (!end.meridiem && closes <= start.minutes && closes < 12 * 60) closes += 12 * 60;
  if (closes <= start.minutes) return null;
  return { opens: hhmm(start.minutes), closes: hhmm(closes) };
}

function postalAddress() {
  const a = FIRM.address;
  return {
    "@type": "PostalAddress",
    streetAddress: a.street,
    addressLocality: a.city,
    addressRegion: a.region,
    postalCode: a.postalCode,
    addressCountry: a.country,
  };
}

/** The firm as an employer: enough to stand alone on a page without the home page's full node. */
function organizationRef(siteUrl: string) {
  return {
    "@type": "LegalService",
    "@id": `${abs(siteUrl, "/")}#organization`,
    name: FIRM.name,
    url: abs(siteUrl, "/"),
    telephone: firmTelephone(),
    address: postalAddress(),
  };
}

function publisher(siteUrl: string) {
  return {
    "@type": "Organization",
    "@id": `${abs(siteUrl, "/")}#publisher`,
    name: FIRM.name,
    url: abs(siteUrl, "/"),
    logo: { "@type": "ImageObject", url: abs(siteUrl, DEFAULT_SOCIAL_IMAGE), width: SOCIAL_IMAGE_WIDTH, height: SOCIAL_IMAGE_HEIGHT },
  };
}

/** The firm, on the home page: address, phone, fax, e-mail, opening hours (Monday to Friday) and practice areas. */
export function legalServiceJsonLd(siteUrl: string, hours: { start_time: string; end_time: string }): JsonLd {
  const times = openingHours(hours.start_time, hours.end_time);
  return {
    "@context": CONTEXT,
    "@type": "LegalService",
    "@id": `${abs(siteUrl, "/")}#organization`,
    name: FIRM.name,
    description: FIRM.tagline,
    url: abs(siteUrl, "/"),
    image: abs(siteUrl, DEFAULT_SOCIAL_IMAGE),
    telephone: firmTelephone(),
    faxNumber: faxNumber(),
    email: FIRM.email,
    address: postalAddress(),
    ...(times
      ? {
          openingHoursSpecification: [
            { "@type": "OpeningHoursSpecification", dayOfWeek: [...WEEKDAYS], opens: times.opens, closes: times.closes },
          ],
        }
      : {}),
    areaServed: { "@type": "AdministrativeArea", name: "Ontario" },
    knowsAbout: PRACTICE_AREAS.map((area) => PRACTICE_PAGES[area].title),
    hasOfferCatalog: {
      "@type": "OfferCatalog",
      name: "Practice areas",
      itemListElement: PRACTICE_AREAS.map((area) => ({
        "@type": "Offer",
        itemOffered: { "@type": "Service", name: PRACTICE_PAGES[area].title, url: abs(siteUrl, PRACTICE_PAGES[area].path) },
      })),
    },
  };
}

export type PersonInput = {
  slug: string;
  full_name: string;
  title: string;
  email: string;
  extension: number | null;
  img: string;
  AOP: readonly string[];
  area_details: readonly string[];
  /** The profile's credentials (issue 33); absent ones add nothing. */
  admissions?: readonly Admission[];
  languages?: readonly string[];
  other_languages?: string;
  education?: readonly Education[];
  memberships?: readonly string[];
  specialist_area?: string;
  specialist_year?: number | null;
};

/** The bodies that admit lawyers, by jurisdiction, where the site knows them (others: no `recognizedBy`). */
const LAW_SOCIETIES: Record<string, string> = {
  ontario: "Law Society of Ontario",
  "british columbia": "Law Society of British Columbia",
  alberta: "Law Society of Alberta",
  saskatchewan: "Law Society of Saskatchewan",
  manitoba: "Law Society of Manitoba",
  quebec: "Barreau du Québec",
  québec: "Barreau du Québec",
  "nova scotia": "Nova Scotia Barristers' Society",
  "new brunswick": "Law Society of New Brunswick",
  "newfoundland and labrador": "Law Society of Newfoundland and Labrador",
  "prince edward island": "Law Society of Prince Edward Island",
  "new york": "New York State Unified Court System",
};

const organization = (name: string) => ({ "@type": "Organization", name });

/** Bar admissions (licences), the LSO certification and degrees, as `EducationalOccupationalCredential`s. */
function credentials(member: PersonInput): JsonLd[] {
  const out: JsonLd[] = [];
  for (const a of member.admissions ?? []) {
    const society = LAW_SOCIETIES[a.jurisdiction.trim().toLowerCase()];
    out.push({
      "@type": "EducationalOccupationalCredential",
      name: `Admitted to the bar, ${a.jurisdiction}`,
      credentialCategory: "license",
      validIn: { "@type": "AdministrativeArea", name: a.jurisdiction },
      dateCreated: String(a.year),
      ...(society ? { recognizedBy: organization(society) } : {}),
    });
  }
  if (member.specialist_area?.trim() && member.specialist_year) {
    out.push({
      "@type": "EducationalOccupationalCredential",
      name: `Certified Specialist in ${member.specialist_area.trim()}`,
      credentialCategory: "certification",
      recognizedBy: organization("Law Society of Ontario"),
      dateCreated: String(member.specialist_year),
    });
  }
  for (const e of member.education ?? []) {
    out.push({
      "@type": "EducationalOccupationalCredential",
      name: e.degree,
      credentialCategory: "degree",
      recognizedBy: { "@type": "EducationalOrganization", name: e.school },
      ...(e.year ? { dateCreated: String(e.year) } : {}),
    });
  }
  return out;
}

/** A lawyer's page: name, job title, the firm, phone with extension, e-mail, photo, languages, schools, memberships, credentials. */
export function personJsonLd(siteUrl: string, member: PersonInput): JsonLd {
  const url = abs(siteUrl, `/lawyer/${encodeURIComponent(member.slug)}`);
  const areas = member.AOP.map((a) => a.toLowerCase()).filter((a): a is PracticeArea => (PRACTICE_AREAS as readonly string[]).includes(a));
  const knowsAbout = [...areas.map((a) => PRACTICE_PAGES[a].title), ...member.area_details];
  const languages = spokenLanguages({ languages: member.languages ?? [], other_languages: member.other_languages ?? "" });
  const schools = [...new Set((member.education ?? []).map((e) => e.school))];
  const held = credentials(member);
  return {
    "@context": CONTEXT,
    "@type": "Person",
    "@id": `${url}#person`,
    name: member.full_name,
    jobTitle: member.title,
    worksFor: organizationRef(siteUrl),
    telephone: firmTelephone(member.extension),
    email: member.email,
    url,
    ...(hasImage(member.img) ? { image: abs(siteUrl, socialImagePath("team", member.img)) } : {}),
    ...(knowsAbout.length ? { knowsAbout } : {}),
    ...(languages.length
      ? { knowsLanguage: languages.map((l) => ({ "@type": "Language", name: l.label, ...(l.code ? { alternateName: l.code } : {}) })) }
      : {}),
    ...(schools.length ? { alumniOf: schools.map((name) => ({ "@type": "EducationalOrganization", name })) } : {}),
    ...(member.memberships?.length ? { memberOf: member.memberships.map(organization) } : {}),
    ...(held.length ? { hasCredential: held } : {}),
  };
}

export type ArticleInput = {
  slug: string;
  title: string;
  description: string;
  category: string;
  news: boolean;
  img: string;
  created_at: Date | string;
  updated_at: Date | string;
  /** The authors the public may see (team members), in order; none: the firm is the author. */
  authors?: ReadonlyArray<{ slug: string; full_name: string }>;
};

function iso(date: Date | string): string {
  return (date instanceof Date ? date : new Date(date)).toISOString();
}

/** A post: `NewsArticle` for news, `BlogPosting` otherwise. */
export function articleJsonLd(siteUrl: string, article: ArticleInput): JsonLd {
  const url = abs(siteUrl, `/post/${encodeURIComponent(article.slug)}`);
  const headline = article.title.length > 110 ? `${article.title.slice(0, 109).trimEnd()}…` : article.title;
  return {
    "@context": CONTEXT,
    "@type": article.news ? "NewsArticle" : "BlogPosting",
    "@id": `${url}#article`,
    headline,
    description: article.description,
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    image: [abs(siteUrl, socialImagePath("articles", article.img))],
    datePublished: iso(article.created_at),
    dateModified: iso(article.updated_at),
    articleSection: article.category,
    inLanguage: "en-CA",
    author: article.authors?.length
      ? article.authors.map((a) => ({ "@type": "Person", name: a.full_name, url: abs(siteUrl, `/lawyer/${encodeURIComponent(a.slug)}`) }))
      : { "@type": "Organization", name: FIRM.name, url: abs(siteUrl, "/") },
    publisher: publisher(siteUrl),
  };
}

/** A trail such as Home > Our Team > Name; the last entry is the page itself. */
export function breadcrumbJsonLd(siteUrl: string, trail: ReadonlyArray<{ name: string; path: string }>): JsonLd {
  return {
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: trail.map((step, i) => ({ "@type": "ListItem", position: i + 1, name: step.name, item: abs(siteUrl, step.path) })),
  };
}

export type EventJsonLdInput = VenueInput & {
  slug: string;
  title: string;
  description: string;
  starts_at: Date | string;
  ends_at: Date | string;
  previous_starts_at: Date | string | null;
  event_status: string;
  published_at: Date | string | null;
  /** Places left (null: no limit). */
  placesLeft: number | null;
  registrationOpen: boolean;
  performers: ReadonlyArray<{ name: string; slug: string | null; organisation: string }>;
};

const EVENT_STATUS: Record<string, string> = {
  scheduled: "https://schema.org/EventScheduled",
  rescheduled: "https://schema.org/EventRescheduled",
  cancelled: "https://schema.org/EventCancelled",
};

const ATTENDANCE: Record<string, string> = {
  "in-person": "https://schema.org/OfflineEventAttendanceMode",
  webinar: "https://schema.org/OnlineEventAttendanceMode",
  hybrid: "https://schema.org/MixedEventAttendanceMode",
};

/**
 * An event (issue 45): start and end with the firm's offset, attendance
 * mode, status (a moved event keeps `previousStartDate`), the venue as a
 * `Place` or the page as a `VirtualLocation` (never the joining link), the
 * firm as organizer, the speakers as performers, a free offer.
 */
export function eventJsonLd(siteUrl: string, event: EventJsonLdInput): JsonLd {
  const url = abs(siteUrl, `/event/${encodeURIComponent(event.slug)}`);
  const place = {
    "@type": "Place",
    name: event.venue_name,
    address: {
      "@type": "PostalAddress",
      streetAddress: event.venue_street,
      addressLocality: event.venue_city,
      addressRegion: event.venue_region,
      postalCode: event.venue_postal_code,
      addressCountry: "CA",
    },
  };
  const virtual = { "@type": "VirtualLocation", url };
  const location = event.format === "webinar" ? virtual : event.format === "hybrid" ? [place, virtual] : place;
  const soldOut = event.placesLeft !== null && event.placesLeft <= 0;
  return {
    "@context": CONTEXT,
    "@type": "Event",
    "@id": `${url}#event`,
    name: event.title,
    description: event.description,
    url,
    startDate: isoWithOffset(event.starts_at),
    endDate: isoWithOffset(event.ends_at),
    ...(event.event_status === "rescheduled" && event.previous_starts_at
      ? { previousStartDate: isoWithOffset(event.previous_starts_at) }
      : {}),
    eventStatus: EVENT_STATUS[event.event_status] ?? EVENT_STATUS.scheduled,
    eventAttendanceMode: ATTENDANCE[event.format] ?? ATTENDANCE["in-person"],
    location,
    image: [abs(siteUrl, DEFAULT_SOCIAL_IMAGE)],
    organizer: { "@type": "Organization", name: FIRM.name, url: abs(siteUrl, "/") },
    performer: event.performers.map((p) =>
      p.slug
        ? { "@type": "Person", name: p.name, url: abs(siteUrl, `/lawyer/${encodeURIComponent(p.slug)}`) }
        : {
            "@type": "Person",
            name: p.name,
            ...(p.organisation ? { affiliation: { "@type": "Organization", name: p.organisation } } : {}),
          },
    ),
    offers: {
      "@type": "Offer",
      price: 0,
      priceCurrency: "CAD",
      url,
      // Full (the waiting list) or closed: no place to be had.
      availability: !event.registrationOpen || soldOut ? "https://schema.org/SoldOut" : "https://schema.org/InStock",
      ...(event.published_at ? { validFrom: isoWithOffset(event.published_at) } : {}),
    },
  };
}
