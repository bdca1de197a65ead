/**
 * Pages that moved keep working. When `/lawyer/{slug}` or `/post/{slug}` has
 * no exact match, the slug is looked up again: case-insensitively, after one
 * more percent-decoding, and with spaces, `+` and `_` read as the hyphens of
 * the slug rules (so `jane-doe`, `Jane%20Doe` and `JANE_DOE` find
 * `Jane-Doe`); then among the old slugs of renamed pages (the redirects a
 * rename made, `origin` 'slug': db/redirects.ts), for the addresses under a
 * page that the redirect list does not name (`/lawyer/{old}/vcard`,
 * `/insights?author={old}`). The loader answers 301 to what is found.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { articleSlug, lawyerSlug } from "~/lib/slug";
import { db } from "./client";
import { articles, redirects, team } from "./schema";
import { articleIsPublic, teamMemberIsPublic } from "./visibility";

export type SlugKind = "lawyer" | "post";

function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The spellings worth trying for a slug that did not match, lower-cased. */
export function slugCandidates(kind: SlugKind, raw: string): string[] {
  if (!raw || raw.length > 300) return [];
  const decoded = decodeOnce(raw);
  const rule = kind === "lawyer" ? lawyerSlug : articleSlug;
  const forms = [raw, decoded, rule(decoded.replace(/[+_]/g, " ")), rule(decoded.replace(/[+_-]+/g, " "))];
  return [...new Set(forms.map((f) => f.replace(/\0/g, "").toLowerCase()).filter(Boolean))];
}

/** The current slug that `raw` stands for, or undefined when nothing matches. */
export async function findMovedSlug(kind: SlugKind, raw: string): Promise<string | undefined> {
  const candidates = slugCandidates(kind, raw);
  if (!candidates.length) return undefined;
  const table = kind === "lawyer" ? team : articles;
  // Only public pages are found: a hidden member's or a draft's URL stays the spec's 404.
  const isPublic = kind === "lawyer" ? teamMemberIsPublic() : articleIsPublic();
  const [current] = await db()
    .select({ slug: table.slug })
    .from(table)
    .where(and(inArray(sql`lower(${table.slug})`, candidates), isPublic))
    .orderBy(asc(table.id))
    .limit(1);
  if (current) return current.slug === raw ? undefined : current.slug;
  const prefix = `/${kind}/`;
  const [moved] = await db()
    .select({ slug: table.slug })
    .from(redirects)
    .innerJoin(table, eq(redirects.target, sql`${prefix} || ${table.slug}`))
    .where(
      and(
        eq(redirects.match, "exact"),
        eq(redirects.origin, "slug"),
        inArray(
          redirects.source,
          candidates.map((c) => prefix + c),
        ),
        isPublic,
      ),
    )
    .orderBy(asc(redirects.id))
    .limit(1);
  return moved && moved.slug !== raw ? moved.slug : undefined;
}
