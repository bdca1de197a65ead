/** Queries for office hours (table `hours`, first row; defaults 9:00 to 5:00). */
import { asc, eq } from "drizzle-orm";
import { fieldChanges, recordAudit, type Actor } from "./audit";
import { contentChanged } from "./content-events";
import { db } from "./client";
import { hours } from "./schema";

export const DEFAULT_HOURS = { start_time: "9:00", end_time: "5:00" } as const;

export type OfficeHours = { start_time: string; end_time: string };

export async function getOfficeHours(): Promise<OfficeHours> {
  const [row] = await db().select({ start_time: hours.start_time, end_time: hours.end_time }).from(hours).orderBy(asc(hours.id)).limit(1);
  return {
    start_time: row?.start_time?.trim() || DEFAULT_HOURS.start_time,
    end_time: row?.end_time?.trim() || DEFAULT_HOURS.end_time,
  };
}

export async function updateOfficeHours(value: OfficeHours, actor: Actor): Promise<void> {
  await db().transaction(async (tx) => {
    const [before] = await tx
      .select({ start_time: hours.start_time, end_time: hours.end_time })
      .from(hours)
      .where(eq(hours.name, "hours"))
      .for("update");
    await tx
      .insert(hours)
      .values({ name: "hours", ...value })
      .onConflictDoUpdate({ target: hours.name, set: { ...value, updated_at: new Date() } });
    await recordAudit(tx, actor, {
      action: "update",
      itemType: "hours",
      itemId: "hours",
      itemLabel: "Office hours",
      changes: fieldChanges(before ?? { start_time: null, end_time: null }, value),
    });
  });
  contentChanged("hours");
}
