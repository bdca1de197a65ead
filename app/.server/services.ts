/**
 * The process's services: the database, better-auth, the mail transports,
 * the storage, the job queue, the content sync, and the in-memory state every
 * request must share (the redirect engine, the 404 log, the content-change
 * listeners, the site's route patterns, the flash cookie's storage). This is
 * the app's ONE process-wide object; no other module keeps a service in a
 * variable of its own.
 *
 * Why one object, kept on `globalThis`: start-up (http/startup.ts) opens the
 * services once, while in development server.js loads server/app.ts through
 * Vite's `ssrLoadModule`, which evaluates an edited module and every module
 * importing it again. A service held in a module's own variable would be
 * empty in the new copy (no database, a second job queue, listeners lost)
 * while the first copy's keep running. One object under one global key
 * survives that; in production (build/server/index.js is one bundle, one
 * module graph) it is the same single object. Tests replace parts of it
 * through the owners' setters (`setDatabase`, `setStorage`,
 * `setJobQueueForTests`, …); Vitest gives each test file its own process
 * state.
 *
 * Loaders, actions and middleware get the services from React Router's
 * request context (`context.get(servicesContext)`, http/request-context.ts),
 * which the server fills with this object and a test may fill with its own
 * (`createServices`). The root route's middleware (`bindRequestServices`)
 * makes the context's services the request's for everything its loaders and
 * actions call (`withServices`): the query modules' `db()`, `getStorage()`,
 * the mail transports, better-auth and the job queue read `currentServices()`,
 * which is the request's services inside a request and this object outside
 * one (start-up, the jobs, the command line). So a context holding another
 * database is the database every query of that request uses, without a
 * database parameter on each of the ~300 queries (decision 0027).
 *
 * Only types and node:async_hooks are imported here, so every module may import this one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { SessionStorage } from "react-router";
import type { Auth } from "./auth/auth";
import type { ContentSync } from "./db/content-sync";
import type { Database } from "./db/client";
import type { JobQueue } from "./jobs/queue";
import type { MailTransports } from "./mail/mail";
import type { RedirectEngine } from "./redirects/engine";
import type { NotFoundLog } from "./redirects/not-found";
import type { Storage } from "./storage/contract";

/** A listener of content writes (db/content-events.ts). */
export type ContentListener = (what: string, remote: boolean) => void;

export type Services = {
  /** The open database (db/client.ts: `getDatabase`, `db`); undefined before start-up. */
  database?: Database;
  /** better-auth over `database`, made again when the database or the environment changes (auth/auth.ts). */
  auth?: { auth: Auth; database: Database; env: unknown };
  /** Uploaded pictures and files (storage/storage.ts); made from the environment on first use. */
  storage?: Storage;
  /** Staff mail's SMTP transport and the mailings' SMTP thread (mail/mail.ts). */
  mail: MailTransports;
  /** The job queue (http/startup.ts; jobs/queue.ts); undefined before start-up and in most tests. */
  jobQueue?: JobQueue;
  /** LISTEN/NOTIFY of content writes across instances (db/content-sync.ts). */
  contentSync?: ContentSync;
  /** Every listener of content writes in this process (db/content-events.ts). */
  contentListeners: Set<ContentListener>;
  /** The redirects held in memory (redirects/engine.ts). */
  redirectEngine?: RedirectEngine;
  /** The 404 log counted in memory (redirects/not-found.ts). */
  notFoundLog?: NotFoundLog;
  /** The running site's route patterns (http/route-table.ts). */
  sitePatterns?: readonly string[];
  /** The flash message cookie's storage for the environment it was made for (admin/flash.server.ts). */
  flash?: { storage: SessionStorage; env: unknown };
};

/** A services object of its own (a test's request context); `parts` filled in, the rest made on first use or absent. */
export function createServices(parts: Partial<Services> = {}): Services {
  return { mail: {}, contentListeners: new Set(), ...parts };
}

const KEY = Symbol.for("firm-site.services");
const SCOPE_KEY = Symbol.for("firm-site.request-services");
const holder = globalThis as unknown as { [KEY]?: Services; [SCOPE_KEY]?: AsyncLocalStorage<Services> };

/** The process's services (the one object: see above). */
export function processServices(): Services {
  return (holder[KEY] ??= createServices());
}

/** The request's services: kept beside the one object, so that a module evaluated again in development shares it. */
function requestScope(): AsyncLocalStorage<Services> {
  return (holder[SCOPE_KEY] ??= new AsyncLocalStorage<Services>());
}

/** Runs `work` (and everything it calls or awaits) with `services` as the current ones: a request's, from its context. */
export function withServices<T>(services: Services, work: () => T): T {
  return requestScope().run(services, work);
}

/** The services of the request under way (its React Router context's), or the process's outside a request. */
export function currentServices(): Services {
  return requestScope().getStore() ?? processServices();
}
