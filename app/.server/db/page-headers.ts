/** Queries for page header texts (table `headers`). */
import { asc, eq } from "drizzle-orm";
import { HEADER_KEYS } from "~/lib/practice";
import { fieldChanges, recordAudit, type Actor } from "./audit";
import { contentChanged } from "./content-events";
import { db } from "./client";
import { headers } from "./schema";

/** The header text shown under a page's banner ('' when none). */
export async function getPageHeaderText(key: string): Promise<string> {
  const [row] = await db().select({ header_text: headers.header_text }).from(headers).where(eq(headers.value, key)).limit(1);
  return row?.header_text ?? "";
}

/** Every page key with its text, in the order of HEADER_KEYS (missing keys appear empty). */
export async function listPageHeaders(): Promise<{ name: string; header_text: string }[]> {
  const rows = await db().select({ name: headers.name, header_text: headers.header_text }).from(headers).orderBy(asc(headers.id));
  const byName = new Map(rows.map((r) => [r.name, r.header_text]));
  const known = HEADER_KEYS.map((name) => ({ name, header_text: byName.get(name) ?? "" }));
  const extra = rows.filter((r) => !(HEADER_KEYS as readonly string[]).includes(r.name));
  return [...known, ...extra];
}

export async function updatePageHeader(name: string, headerText: string, actor: Actor): Promise<void> {
  await db().transaction(async (tx) => {
    const [before] = await tx.select({ header_text: headers.header_text }).from(headers).where(eq(headers.name, name)).for("update");
    await tx
      .insert(headers)
      .values({ name, value: name, header_text: headerText })
      .onConflictDoUpdate({ target: headers.name, set: { header_text: headerText, updated_at: new Date() } });
    await recordAudit(tx, actor, {
      action: "update",
      itemType: "header",
      itemId: name,
      itemLabel: `${name} page header`,
      changes: fieldChanges(before ?? { header_text: null }, { header_text: headerText }),
    });
  });
  contentChanged("headers");
}
