/**
 * Structured JSON logs, one line each; never passwords, cookies or tokens.
 * Lines are written in batches (once per turn of the event loop) so logging
 * every request costs one write for many requests; errors go out at once.
 */
type Level = "info" | "warn" | "error";

let pending: string[] = [];
let scheduled = false;

function flush() {
  scheduled = false;
  if (!pending.length) return;
  const text = pending.join("\n") + "\n";
  pending = [];
  process.stdout.write(text);
}

process.on("exit", flush);

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  const setting = process.env.LOG_LEVEL;
  if (setting === "silent") return;
  if (setting === "error" && level !== "error") return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === "error") {
    flush();
    console.error(line);
    return;
  }
  pending.push(line);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}
