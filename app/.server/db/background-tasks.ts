/**
 * Queries for background tasks started from the dashboard (table
 * `background_tasks`; the WordPress import, app/.server/wordpress/task.ts):
 * their state, progress and result, read by the screen from any instance.
 */
import { and, desc, eq } from "drizzle-orm";
import { db } from "./client";
import { backgroundTasks } from "./schema";

export type BackgroundTask = typeof backgroundTasks.$inferSelect;

export async function createTask(kind: string, input: Record<string, unknown>, createdBy: string): Promise<BackgroundTask> {
  const [row] = await db().insert(backgroundTasks).values({ kind, input, created_by: createdBy }).returning();
  return row;
}

export async function getTask(id: number, kind: string): Promise<BackgroundTask | undefined> {
  const [row] = await db()
    .select()
    .from(backgroundTasks)
    .where(and(eq(backgroundTasks.id, id), eq(backgroundTasks.kind, kind)));
  return row;
}

export async function latestTasks(kind: string, limit = 5): Promise<BackgroundTask[]> {
  return db().select().from(backgroundTasks).where(eq(backgroundTasks.kind, kind)).orderBy(desc(backgroundTasks.id)).limit(limit);
}

export async function updateTask(
  id: number,
  values: Partial<Pick<BackgroundTask, "status" | "progress" | "result" | "error" | "started_at" | "finished_at">>,
) {
  await db().update(backgroundTasks).set(values).where(eq(backgroundTasks.id, id));
}
