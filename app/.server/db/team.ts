/** Queries for team members (table `team`). */
import { and, asc, eq, ilike, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { lawyerSlug } from "~/lib/slug";
import type { ProfileBasics } from "~/lib/profile";
import { sortTeam } from "~/lib/team-order";
import { fieldChanges, recordAudit, type Actor, recordMovedToTrash } from "./audit";
import { contentChanged } from "./content-events";
import { db } from "./client";
import { escapeLike, freeSlug, withSlugRetry } from "./slugs";
import { memoUntilContentChange } from "./memo";
import { team, type BarAdmission, type EducationEntry, type SupportStaff, type TeamMemberRow } from "./schema";
import { teamMemberIsPublic, teamMemberNotTrashed } from "./visibility";
import { checkVersion, recordRevision } from "./revisions";

export type TeamMember = TeamMemberRow;

export type TeamMemberInput = ProfileBasics & {
  img: string;
  AOP: string[];
  area_details: string[];
  staff: SupportStaff[];
} & Partial<TeamCredentialsInput>;

/** The profile's credentials (issue 33): optional in a save; left out, a member's stay as they are. */
export type TeamCredentialsInput = {
  admissions: BarAdmission[];
  languages: string[];
  other_languages: string;
  education: EducationEntry[];
  matters: string;
  memberships: string[];
  specialist_area: string;
  specialist_year: number | null;
};

/**
 * Visibility part of a save: shown now or not, and optional planned changes
 * (applied by the `scheduled-publishing` job). A planned time already past
 * is applied at once.
 */
export type TeamVisibilityInput = { visible: boolean; visibleFrom: Date | null; hiddenFrom: Date | null };

export function visibilityColumns(v: TeamVisibilityInput, now = new Date()) {
  let visible = v.visible;
  let visible_from = v.visibleFrom;
  let hidden_from = v.hiddenFrom;
  if (visible_from && visible_from <= now) {
    visible = true;
    visible_from = null;
  }
  if (hidden_from && hidden_from <= now) {
    visible = false;
    hidden_from = null;
  }
  // A planned change to the state it already has means nothing.
  if (visible) visible_from = null;
  if (!visible && !visible_from) hidden_from = null;
  return { visible, visible_from, hidden_from };
}

const cardColumns = {
  id: team.id,
  slug: team.slug,
  full_name: team.full_name,
  title: team.title,
  img: team.img,
  AOP: team.AOP,
  languages: team.languages,
};
export type TeamCard = Pick<TeamMember, keyof typeof cardColumns>;

/** Every member for the public grid, in the spec's order; kept until the next content change. */
export const listTeamCards: () => Promise<TeamCard[]> = memoUntilContentChange(
  async () => Object.freeze(sortTeam(await db().select(cardColumns).from(team).where(teamMemberIsPublic()))) as TeamCard[],
);

/** Dashboard list: sorted by full name; optional case-insensitive search on name. */
export async function listTeamForAdmin(search = "") {
  // PostgreSQL cannot hold a NUL character in text: a search for one is a search for the rest.
  const q = search.replace(/\0/g, "").trim();
  return db()
    .select({
      id: team.id,
      slug: team.slug,
      full_name: team.full_name,
      title: team.title,
      img: team.img,
      visible: team.visible,
      visible_from: team.visible_from,
      hidden_from: team.hidden_from,
    })
    .from(team)
    .where(and(teamMemberNotTrashed(), q ? ilike(team.full_name, `%${escapeLike(q)}%`) : undefined))
    .orderBy(sql`lower(${team.full_name})`, asc(team.id));
}

/** A public member by URL (hidden and trashed members are not found). */
export async function getTeamMemberBySlug(slug: string): Promise<TeamMember | undefined> {
  // No slug holds a NUL (PostgreSQL would refuse the query with an error).
  if (slug.includes("\0")) return undefined;
  const [row] = await db()
    .select()
    .from(team)
    .where(and(eq(team.slug, slug), teamMemberIsPublic()))
    .limit(1);
  return row;
}

/** Any member not in the Trash by URL, whatever its visibility (dashboard, staff previews). */
export async function getTeamMemberBySlugForStaff(slug: string): Promise<TeamMember | undefined> {
  if (slug.includes("\0")) return undefined;
  const [row] = await db()
    .select()
    .from(team)
    .where(and(eq(team.slug, slug), teamMemberNotTrashed()))
    .limit(1);
  return row;
}

export async function getTeamMemberById(id: number, options: { withTrashed?: boolean } = {}): Promise<TeamMember | undefined> {
  const [row] = await db()
    .select()
    .from(team)
    .where(options.withTrashed ? eq(team.id, id) : and(eq(team.id, id), teamMemberNotTrashed()))
    .limit(1);
  return row;
}

/** Adds a member, and its audit entry in the same transaction. */
export async function createTeamMember(input: TeamMemberInput & { visibility?: TeamVisibilityInput }, actor: Actor): Promise<TeamMember> {
  const { visibility, ...fields } = input;
  const row = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      const slug = await freeSlug(tx, team, lawyerSlug(input.full_name));
      const [created] = await tx
        .insert(team)
        .values({ ...fields, ...(visibility ? visibilityColumns(visibility) : {}), slug })
        .returning();
      await recordAudit(tx, actor, {
        action: "create",
        itemType: "team",
        itemId: created.id,
        itemLabel: created.full_name,
        changes: fieldChanges(null, created, { ignore: ["id"] }),
      });
      await recordRevision(tx, "team", created, actor);
      return created;
    }),
  );
  contentChanged("team");
  return row;
}

/** Updates a member (and records it); returns the row before and after (undefined when it does not exist). */
/** With `expectedVersion`, a save over someone else's newer save throws EditConflict and writes nothing. */
export async function updateTeamMember(
  id: number,
  input: TeamMemberInput & { visibility?: TeamVisibilityInput; expectedVersion?: number },
  actor: Actor,
) {
  const { visibility, expectedVersion, ...fields } = input;
  const result = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(team)
        .where(and(eq(team.id, id), teamMemberNotTrashed()))
        .for("update");
      if (!before) return undefined;
      await checkVersion(tx, "team", id, before.version, expectedVersion);
      const slug = before.full_name === input.full_name ? before.slug : await freeSlug(tx, team, lawyerSlug(input.full_name), id);
      const [after] = await tx
        .update(team)
        .set({ ...fields, ...(visibility ? visibilityColumns(visibility) : {}), slug, updated_at: new Date(), version: before.version + 1 })
        .where(eq(team.id, id))
        .returning();
      // Shown or hidden by hand: a publish or unpublish, like the scheduled change (the diff is kept).
      const action = !before.visible && after.visible ? "publish" : before.visible && !after.visible ? "unpublish" : "update";
      await recordAudit(tx, actor, {
        action,
        itemType: "team",
        itemId: id,
        itemLabel: after.full_name,
        changes: fieldChanges(before, after),
      });
      await recordRevision(tx, "team", after, actor);
      return { before, after: after };
    }),
  );
  if (result) contentChanged("team");
  return result;
}

/**
 * Moves a member to the Trash (and records it): off the public site and the
 * dashboard's list, URL and photo kept; removed for good 30 days later (trash.ts).
 */
export async function deleteTeamMember(id: number, actor: Actor): Promise<TeamMember | undefined> {
  const row = await db().transaction(async (tx) => {
    const [trashed] = await tx
      .update(team)
      .set({ deleted_at: new Date() })
      .where(and(eq(team.id, id), teamMemberNotTrashed()))
      .returning();
    if (trashed) await recordMovedToTrash(tx, actor, "team", id, trashed.full_name);
    return trashed;
  });
  if (row) contentChanged("team");
  return row;
}

export async function countTeam(): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(team);
  return row?.n ?? 0;
}

/**
 * Planned visibility changes whose time has come (the `scheduled-publishing`
 * job): "visible from" shows a member, "hidden from" hides one. Conditional
 * updates, so repeating or racing runs change each member once; each change
 * is in the audit trail with the job as actor.
 */
export async function applyDueTeamVisibility(actor: Actor, now = new Date()): Promise<{ shown: number; hidden: number }> {
  const result = await db().transaction(async (tx) => {
    // A member in the Trash stays as they are until restored.
    const shown = await tx
      .update(team)
      .set({ visible: true, visible_from: null, updated_at: now, version: sql`${team.version} + 1` })
      .where(and(isNotNull(team.visible_from), lte(team.visible_from, now), isNull(team.deleted_at)))
      .returning();
    const hidden = await tx
      .update(team)
      .set({ visible: false, hidden_from: null, updated_at: now, version: sql`${team.version} + 1` })
      .where(and(isNotNull(team.hidden_from), lte(team.hidden_from, now), isNull(team.deleted_at)))
      .returning();
    for (const m of shown)
      await recordAudit(tx, actor, {
        action: "publish",
        itemType: "team",
        itemId: m.id,
        itemLabel: m.full_name,
        changes: { visible: { before: false, after: true } },
      });
    for (const m of hidden)
      await recordAudit(tx, actor, {
        action: "unpublish",
        itemType: "team",
        itemId: m.id,
        itemLabel: m.full_name,
        changes: { visible: { before: true, after: false } },
      });
    // Each new version has its revision (History, and the conflict message of someone editing meanwhile).
    for (const m of [...shown, ...hidden]) await recordRevision(tx, "team", m, actor, now);
    return { shown: shown.length, hidden: hidden.length };
  });
  if (result.shown || result.hidden) contentChanged("team");
  return result;
}
