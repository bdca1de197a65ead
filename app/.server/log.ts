/** Structured JSON logs, one line each; never passwords, cookies or tokens. */
type Level = "info" | "warn" | "error";

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (process.env.LOG_LEVEL === "silent") return;
  if (process.env.LOG_LEVEL === "error" && level !== "error") return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}
