/** Queries for team members (table `team`). */
import { asc, eq, ilike, or, sql } from "drizzle-orm";
import { lawyerSlug, uniqueSlug } from "~/lib/slug";
import { sortTeam } from "~/lib/team-order";
import { contentChanged } from "../content-events";
import { db, type Db } from "./client";
import { memoUntilContentChange } from "./memo";
import { team, type SupportStaff, type TeamMemberRow } from "./schema";

export type TeamMember = TeamMemberRow;

export type TeamMemberInput = {
  full_name: string;
  title: string;
  email: string;
  extension: number | null;
  mobile: string;
  desc: string;
  img: string;
  AOP: string[];
  area_details: string[];
  staff: SupportStaff[];
};

const cardColumns = {
  id: team.id,
  slug: team.slug,
  full_name: team.full_name,
  title: team.title,
  img: team.img,
  AOP: team.AOP,
};
export type TeamCard = Pick<TeamMember, keyof typeof cardColumns>;

/** Every member for the public grid, in the spec's order; kept until the next content change. */
export const listTeamCards: () => Promise<TeamCard[]> = memoUntilContentChange(async () =>
  Object.freeze(sortTeam(await db().select(cardColumns).from(team))) as TeamCard[],
);

/** Dashboard list: sorted by full name; optional case-insensitive search on name. */
export async function listTeamForAdmin(search = "") {
  // PostgreSQL cannot hold a NUL character in text: a search for one is a search for the rest.
  const q = search.replace(/\0/g, "").trim();
  return db()
    .select({ id: team.id, slug: team.slug, full_name: team.full_name, title: team.title, img: team.img })
    .from(team)
    .where(q ? ilike(team.full_name, `%${escapeLike(q)}%`) : undefined)
    .orderBy(sql`lower(${team.full_name})`, asc(team.id));
}

export async function getTeamMemberBySlug(slug: string): Promise<TeamMember | undefined> {
  // No slug holds a NUL (PostgreSQL would refuse the query with an error).
  if (slug.includes("\0")) return undefined;
  const [row] = await db().select().from(team).where(eq(team.slug, slug)).limit(1);
  return row;
}

export async function getTeamMemberById(id: number): Promise<TeamMember | undefined> {
  const [row] = await db().select().from(team).where(eq(team.id, id)).limit(1);
  return row;
}

async function freeSlug(tx: Db, fullName: string, exceptId?: number): Promise<string> {
  const base = lawyerSlug(fullName);
  const rows = await tx
    .select({ id: team.id, slug: team.slug })
    .from(team)
    .where(or(eq(team.slug, base), ilike(team.slug, `${escapeLike(base)}-%`)));
  return uniqueSlug(base, new Set(rows.filter((r) => r.id !== exceptId).map((r) => r.slug)));
}

export async function createTeamMember(input: TeamMemberInput): Promise<TeamMember> {
  const row = await withSlugRetry(async () => {
    const slug = await freeSlug(db(), input.full_name);
    const [created] = await db().insert(team).values({ ...input, slug }).returning();
    return created!;
  });
  contentChanged("team");
  return row;
}

/** Updates a member; returns the row before and after (undefined when it does not exist). */
export async function updateTeamMember(id: number, input: TeamMemberInput) {
  const result = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      const [before] = await tx.select().from(team).where(eq(team.id, id)).for("update");
      if (!before) return undefined;
      const slug = before.full_name === input.full_name ? before.slug : await freeSlug(tx, input.full_name, id);
      const [after] = await tx
        .update(team)
        .set({ ...input, slug, updated_at: new Date() })
        .where(eq(team.id, id))
        .returning();
      return { before, after: after! };
    }),
  );
  if (result) contentChanged("team");
  return result;
}

/** Deletes a member; returns the deleted row (for its picture), or undefined. */
export async function deleteTeamMember(id: number): Promise<TeamMember | undefined> {
  const [row] = await db().delete(team).where(eq(team.id, id)).returning();
  if (row) contentChanged("team");
  return row;
}

export async function countTeam(): Promise<number> {
  const [row] = await db().select({ n: sql<number>`count(*)::int` }).from(team);
  return row?.n ?? 0;
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Two saves racing for one slug: the unique index refuses one; try once more. */
export async function withSlugRetry<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) return work();
    throw error;
  }
}

export function isUniqueViolation(error: unknown): boolean {
  let e = error as { code?: string; cause?: unknown } | undefined;
  for (let i = 0; e && i < 4; i++) {
    if (e.code === "23505") return true;
    e = e.cause as typeof e;
  }
  return false;
}
