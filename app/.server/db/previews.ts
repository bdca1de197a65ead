/**
 * Share-a-preview links (table `preview_links`): a partner opens a draft or
 * a hidden profile without an account. The link holds a random 256-bit
 * token; only its SHA-256 is stored. A link works for 7 days unless revoked,
 * and always shows the item's latest saved version (it names the item, not
 * a copy). Creating and revoking are in the audit trail.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { recordAudit, type Actor } from "./audit";
import { db } from "./client";
import { previewLinks } from "./schema";

export const PREVIEW_LINK_DAYS = 7;
export type PreviewItemType = "article" | "team";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createPreviewLink(itemType: PreviewItemType, itemId: number, itemLabel: string, actor: Actor, now = new Date()) {
  const token = randomBytes(32).toString("base64url");
  const expires = new Date(now.getTime() + PREVIEW_LINK_DAYS * 86_400_000);
  await db().transaction(async (tx) => {
    await tx.insert(previewLinks).values({
      token_hash: hash(token),
      item_type: itemType,
      item_id: itemId,
      created_by: actor.label,
      created_at: now,
      expires_at: expires,
    });
    await recordAudit(tx, actor, {
      action: "create",
      itemType: itemType,
      itemId,
      itemLabel,
      changes: { preview_link: { after: `expires ${expires.toISOString()}` } },
    });
  });
  return { token, expires };
}

/** Links of an item still working (newest first), for the edit screen. */
export async function listPreviewLinks(itemType: PreviewItemType, itemId: number, now = new Date()) {
  return db()
    .select({
      id: previewLinks.id,
      created_by: previewLinks.created_by,
      created_at: previewLinks.created_at,
      expires_at: previewLinks.expires_at,
    })
    .from(previewLinks)
    .where(
      and(
        eq(previewLinks.item_type, itemType),
        eq(previewLinks.item_id, itemId),
        isNull(previewLinks.revoked_at),
        gt(previewLinks.expires_at, now),
      ),
    )
    .orderBy(desc(previewLinks.id));
}

export async function revokePreviewLink(
  itemType: PreviewItemType,
  itemId: number,
  linkId: number,
  itemLabel: string,
  actor: Actor,
): Promise<boolean> {
  return db().transaction(async (tx) => {
    const rows = await tx
      .update(previewLinks)
      .set({ revoked_at: new Date() })
      .where(
        and(
          eq(previewLinks.id, linkId),
          eq(previewLinks.item_type, itemType),
          eq(previewLinks.item_id, itemId),
          isNull(previewLinks.revoked_at),
        ),
      )
      .returning({ id: previewLinks.id });
    if (rows.length)
      await recordAudit(tx, actor, {
        action: "update",
        itemType,
        itemId,
        itemLabel,
        changes: { preview_link: { before: "active", after: "revoked" } },
      });
    return rows.length > 0;
  });
}

/** The item a link names, while it works; undefined for an unknown, expired or revoked link. */
export async function resolvePreviewLink(itemType: PreviewItemType, token: string, now = new Date()): Promise<number | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const [row] = await db()
    .select({ item_id: previewLinks.item_id })
    .from(previewLinks)
    .where(
      and(
        eq(previewLinks.token_hash, hash(token)),
        eq(previewLinks.item_type, itemType),
        isNull(previewLinks.revoked_at),
        gt(previewLinks.expires_at, now),
      ),
    )
    .limit(1);
  return row?.item_id;
}
