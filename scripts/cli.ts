/**
 * Shared start for command-line scripts: parse env, open the configured database, run, close.
 *
 * It imports only the environment, the database client and storage, never the server's start-up
 * (auth, mail, jobs, statistics, the route table): a script loads what its own work imports, and
 * no more (`npm run bench:import` measures the importer's memory with this entry point).
 */
import { closeDatabase, openConfiguredDatabase } from "~/.server/db/client";
import { DatabaseStartError } from "~/.server/db/errors";
import { EnvError, getEnv } from "~/.server/env";
import { getStorage } from "~/.server/storage/storage";

/** What a script opened, closed: the bucket's connections (when pictures live in one) and the database. */
async function closeScript(): Promise<void> {
  getStorage().close?.();
  await closeDatabase();
}

export async function runScript(work: () => Promise<void>) {
  process.env.LOG_LEVEL ??= "error";
  try {
    const env = getEnv();
    await openConfiguredDatabase(env);
    await work();
    await closeScript();
    process.exit(0);
  } catch (error) {
    const known = error instanceof EnvError || error instanceof DatabaseStartError || error instanceof UsageError;
    console.error(known ? error.message : error);
    await closeScript().catch(() => {});
    process.exit(1);
  }
}

export class UsageError extends Error {}

/** Reads a password without echo from a terminal, or one line from a pipe. */
export async function readPassword(prompt: string): Promise<string> {
  const { createInterface } = await import("node:readline");
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const rl = createInterface({ input: stdin });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    return "";
  }
  process.stdout.write(prompt);
  return new Promise((resolve) => {
    let value = "";
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    const onData = (ch: string) => {
      if (ch === "\r" || ch === "\n" || ch === "\u0004") {
        stdin.setRawMode(false);
        stdin.pause();
        stdin.off("data", onData);
        process.stdout.write("\n");
        resolve(value);
      } else if (ch === "\u0003") {
        process.exit(130);
      } else if (ch === "\u007f") {
        value = value.slice(0, -1);
      } else {
        value += ch;
      }
    };
    stdin.on("data", onData);
  });
}
