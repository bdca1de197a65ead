/** An import as the Subscribers screen shows it (the page's loader and the progress resource). */
import { staffDateTime } from "./dates";

/** What a stored import holds besides its file (db/subscriber-imports.ts). */
export type StoredImport = {
  id: number;
  status: string;
  file_name: string;
  created_by: string;
  created_at: Date;
  rows_total: number;
  rows_read: number;
  accepted: number;
  refused: number;
  refusals: { row: number; email: string; reason: string }[];
  error: string;
};

/** Refused rows listed on the screen (the counts cover them all). */
export const REFUSALS_SHOWN = 200;

export function importView(i: StoredImport) {
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
    /** Refused rows kept with their reasons (the download's; the first IMPORT_REFUSALS_KEPT or so, the count goes on). */
    refusalsKept: i.refusals.length,
    error: i.error,
  };
}

export type ImportView = ReturnType<typeof importView>;
