/** Queries for page header texts (table `headers`). */
import { asc, eq } from "drizzle-orm";
import { HEADER_KEYS } from "~/lib/practice";
import { contentChanged } from "../content-events";
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

export async function updatePageHeader(name: string, headerText: string): Promise<void> {
  await db()
    .insert(headers)
    .values({ name, value: name, header_text: headerText })
    .onConflictDoUpdate({ target: headers.name, set: { header_text: headerText, updated_at: new Date() } });
  contentChanged("headers");
}
