/**
 * Demo content: seeded automatically into an empty embedded database, or on
 * purpose with `npm run db:seed` (which replaces all content).
 */
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { systemActor } from "./audit";
import { deleteImage, saveImage } from "../pictures/images";
import { getStorage, IMAGE_FOLDERS } from "../storage/storage";
import { createArticle } from "./articles";
import { db } from "./client";
import { DEMO_ARTICLES, DEMO_EVENTS, DEMO_HEADERS, DEMO_REGISTRANTS, DEMO_TEAM } from "./demo-content";
import { createEvent } from "./events";
import { markEventsLookedAt } from "./event-listings";
import { insertDemoRegistrations } from "./event-registrations";
import { parseFirmLocal, toFirmLocalInput } from "~/lib/firm-time";
import { updateOfficeHours } from "./office-hours";
import { updatePageHeader } from "./page-headers";
import {
  articleAuthors,
  articleAutosaves,
  articles,
  events,
  eventRegistrations,
  eventSpeakers,
  headers,
  hours,
  previewLinks,
  redirects,
  revisions,
  team,
  wordpressItems,
} from "./schema";
import { createTeamMember } from "./team";

/** True when no content table has a row (a brand-new database). */
export async function isContentEmpty(): Promise<boolean> {
  const counts = await Promise.all(
    [team, articles, headers, hours].map((table) =>
      db()
        .select({ n: sql<number>`count(*)::int` })
        .from(table),
    ),
  );
  return counts.every(([row]) => (row?.n ?? 0) === 0);
}

function initials(name: string) {
  return name
    .split(/\s+/)
    .map((w) => w[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

/** A made portrait (4:5): soft gradient, head-and-shoulders silhouette, initials. */
async function demoPortrait(name: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="hsl(${hue},28%,78%)"/><stop offset="1" stop-color="hsl(${hue},30%,52%)"/></linearGradient></defs>
  <rect width="800" height="1000" fill="url(#g)"/>
  <circle cx="400" cy="400" r="170" fill="hsl(${hue},20%,92%)" opacity="0.85"/>
  <path d="M110 1000 C130 740 270 640 400 640 C530 640 670 740 690 1000 Z" fill="hsl(${hue},25%,25%)" opacity="0.9"/>
  <text x="400" y="440" font-family="serif" font-size="120" text-anchor="middle" fill="hsl(${hue},35%,30%)">${initials(name)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A made article picture (16:9): quiet geometric composition. */
async function demoArticleImage(hue: number, seed: number): Promise<Buffer> {
  const shapes = Array.from({ length: 6 }, (_, i) => {
    const x = (seed * 137 + i * 211) % 1200;
    const y = (seed * 89 + i * 149) % 675;
    const r = 60 + ((seed + i * 37) % 160);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${(hue + i * 12) % 360},35%,${40 + i * 6}%)" opacity="0.55"/>`;
  }).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675">
  <rect width="1200" height="675" fill="hsl(${hue},30%,22%)"/>${shapes}
  <rect x="0" y="560" width="1200" height="115" fill="hsl(${hue},30%,14%)" opacity="0.6"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

export type SeedProgress = (message: string) => void;

/**
 * Removes all content rows and uploaded pictures (used by a deliberate reseed),
 * with what belongs to them: authors, revisions, share-a-preview links,
 * autosaved drafts, events' speakers and registrations, and old addresses. Ids are not restarted: the audit trail
 * keeps its entries, which must never come to name a different item.
 */
export async function clearContent(): Promise<void> {
  await db().execute(
    sql`truncate ${team}, ${articles}, ${events}, ${eventSpeakers}, ${eventRegistrations}, ${articleAuthors}, ${articleAutosaves}, ${revisions}, ${previewLinks}, ${wordpressItems}, ${headers}, ${hours}`,
  );
  await db().delete(redirects).where(eq(redirects.origin, "slug"));
  const storage = getStorage();
  for (const folder of IMAGE_FOLDERS) {
    for (const key of await storage.list(folder)) await storage.delete(key).catch(() => {});
  }
}

/** Demo content is recorded in the audit trail as made by "demo content". */
const DEMO_ACTOR = systemActor("demo content");

export async function seedDemoContent(progress: SeedProgress = () => {}): Promise<void> {
  const now = Date.now();
  progress(`Seeding ${DEMO_TEAM.length} demo team members…`);
  const lawyers: { id: number; AOP: string[] }[] = [];
  const memberIds = new Map<string, number>();
  for (const [i, m] of DEMO_TEAM.entries()) {
    const { hue, ...member } = m;
    // Every third support person has no photo, to show the placeholder.
    const img = i === DEMO_TEAM.length - 1 ? "" : await saveImage("team", await demoPortrait(m.full_name, hue));
    try {
      const created = await createTeamMember({ ...member, img }, DEMO_ACTOR);
      memberIds.set(created.full_name, created.id);
      if (/partner|associate/i.test(created.title)) lawyers.push({ id: created.id, AOP: created.AOP });
    } catch (error) {
      await deleteImage("team", img);
      throw error;
    }
  }
  progress(`Seeding ${DEMO_ARTICLES.length} demo articles…`);
  for (const [i, a] of DEMO_ARTICLES.entries()) {
    const { hue, daysAgo, ...article } = a;
    const created = new Date(now - daysAgo * 86_400_000);
    const img = await saveImage("articles", await demoArticleImage(hue, i + 1));
    // Insights are written by lawyers of their practice (one, every third article two); news and events by the firm.
    const practice = lawyers.filter((l) => l.AOP.includes(article.category));
    const authors =
      article.news || !practice.length
        ? []
        : [practice[i % practice.length].id, ...(i % 3 === 0 && practice.length > 1 ? [practice[(i + 1) % practice.length].id] : [])];
    await createArticle({ ...article, img, authors, state: { status: "published", publishAt: created }, created_at: created }, DEMO_ACTOR);
  }
  progress(`Seeding ${DEMO_EVENTS.length} demo events…`);
  for (const e of DEMO_EVENTS) {
    // The day in the firm's zone, at the event's wall-clock time there.
    const day = toFirmLocalInput(new Date(now + e.daysFromNow * 86_400_000)).slice(0, 10);
    const start = parseFirmLocal(`${day}T${e.at}`, "start");
    if (!start.ok) throw new Error(start.message);
    const { venue, guests = [], speakers, daysFromNow: _days, at: _at, minutes, ...columns } = e;
    const created = await createEvent(
      {
        ...columns,
        status: "published",
        published_at: new Date(now - 90 * 86_400_000),
        starts_at: start.date,
        ends_at: new Date(start.date.getTime() + minutes * 60_000),
        venue_name: venue?.name ?? "",
        venue_street: venue?.street ?? "",
        venue_city: venue?.city ?? "",
        venue_region: venue?.region ?? "",
        venue_postal_code: venue?.postal_code ?? "",
        speakers: [
          ...speakers.map((name) => ({ memberId: memberIds.get(name)! })),
          ...guests.map((g) => ({ guestName: g.name, guestOrganisation: g.organisation })),
        ],
      },
      DEMO_ACTOR,
    );
    // The past event's registrants, registered a few weeks before it (its registrations screen has people to mark).
    if (e.daysFromNow < 0)
      await insertDemoRegistrations(
        created.id,
        DEMO_REGISTRANTS.map((r, i) => ({ ...r, at: new Date(start.date.getTime() - (20 - i) * 86_400_000) })),
      );
  }
  for (const [name, text] of Object.entries(DEMO_HEADERS)) await updatePageHeader(name, text, DEMO_ACTOR);
  await updateOfficeHours({ start_time: "9:00", end_time: "5:00" }, DEMO_ACTOR);
  // No page has been served from this database yet: the events-passed look need not announce the events written above.
  await markEventsLookedAt(new Date());
  progress("Demo content ready.");
}
