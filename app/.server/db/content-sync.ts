/**
 * Several server processes on one PostgreSQL stay fresh: a content write in
 * one process is announced with NOTIFY, and every other process clears its
 * page cache on hearing it (LISTEN on a dedicated connection, reconnecting
 * after a database restart). Nothing to do on the single-process PGlite.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { contentChanged, onContentChange } from "./content-events";
import type { Database } from "./client";
import { log } from "../log";

const CHANNEL = "firm_content_changed";

export type ContentSync = { stop(): Promise<void> };

export async function startContentSync(database: Database): Promise<ContentSync> {
  if (database.kind !== "postgres" || !database.pool) return { async stop() {} };
  const pool = database.pool;
  const instance = randomUUID();
  const connectionString = (pool as unknown as { options: { connectionString: string } }).options.connectionString;
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  async function listen() {
    if (stopped) return;
    const c = new pg.Client({ connectionString });
    c.on("error", () => {}); // reported through "end"
    c.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload !== instance) contentChanged(message.payload ?? "remote", true);
    });
    c.on("end", () => {
      if (client === c) client = undefined;
      if (!stopped) {
        // Anything may have changed while we were not listening.
        contentChanged("reconnect", true);
        retry = setTimeout(() => void listen(), 1000);
        retry.unref();
      }
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      client = c;
    } catch (error) {
      log("warn", "content sync: cannot listen yet", { error: (error as Error).message });
      c.removeAllListeners("end");
      await c.end().catch(() => {});
      if (!stopped) {
        retry = setTimeout(() => void listen(), 1000);
        retry.unref();
      }
    }
  }

  const unsubscribe = onContentChange((_what, remote) => {
    if (remote) return;
    pool.query("select pg_notify($1, $2)", [CHANNEL, instance]).catch((error) => {
      log("warn", "content sync: notify failed", { error: (error as Error).message });
    });
  });

  await listen();
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
