/** An import as the Subscribers screen shows it (the page's loader and the progress resource). */
import { staffDateTime } from "~/lib/dates";
import type { SubscriberImport } from "../db/subscriber-imports";

/** Refused rows listed on the screen (the counts cover them all). */
export const REFUSALS_SHOWN = 200;

export function importView(i: Omit<SubscriberImport, "csv">) {
  return {
    id: i.id,
    status: i.status as "queued" | "running" | "done" | "failed",
    fileName: i.file_name,
    createdBy: i.created_by,
    created: staffDateTime(i.created_at),
    rowsTotal: i.rows_total,
    rowsRead: i.rows_read,
    accepted: i.accepted,
    refused: i.refused,
    refusals: i.refusals.slice(0, REFUSALS_SHOWN),
    error: i.error,
  };
}

export type ImportView = ReturnType<typeof importView>;
