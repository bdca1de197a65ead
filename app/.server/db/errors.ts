/** A start-up failure whose message is shown as one line, without a stack trace. */
export class DatabaseStartError extends Error {}

/** A unique index refused the write (PostgreSQL 23505), however deep the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  let e = error as { code?: string; cause?: unknown } | undefined;
  for (let i = 0; e && i < 4; i++) {
    if (e.code === "23505") return true;
    e = e.cause as typeof e;
  }
  return false;
}
