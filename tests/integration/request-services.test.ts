/**
 * Loaders, actions and the dashboard's guard get the services (database,
 * auth, storage, job queue…) from React Router's request context
 * (`servicesContext`, app/.server/http/request-context.ts): a context
 * holding services other than the process's (app/.server/services.ts) is
 * what they use, down to every query they run (the root route's middleware,
 * `bindRequestServices`, run here by callRoute as the server runs it).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, setDatabase, type Database } from "~/.server/db/client";
import { createEvent } from "~/.server/db/events";
import { createTeamMember } from "~/.server/db/team";
import { routerContext, servicesContext } from "~/.server/http/request-context";
import type { JobQueue } from "~/.server/jobs/queue";
import { createServices, currentServices, processServices, withServices } from "~/.server/services";
import { diskStorage } from "~/.server/storage/storage";
import { loader as loginLoader } from "~/routes/admin/login";
import { loader as certificatesLoader } from "~/routes/admin/event-certificates-progress";
import { loader as lawyerLoader } from "~/routes/public/lawyer";
import { loader as bioPdfLoader } from "~/routes/public/bio-pdf";
import { middleware as rootMiddleware } from "~/root";
import { memberInput } from "../support/team";
import { createTestDatabase, setUpTestDatabase, TEST_ACTOR } from "../support/database";
import { eventInput } from "../support/events";
import { callRoute, TEST_ROUTE_CONTEXT } from "../support/route-call";
import { signedIn } from "../support/staff-session";

const test = setUpTestDatabase();
const INFO = { clientIp: "127.0.0.1", requestId: "t", nonce: "n" };

describe("services in the request context", () => {
  let other: { database: Database; drop(): Promise<void> };
  let cookie: string;

  beforeAll(async () => {
    // A second database, and a staff member signed in there only.
    other = await createTestDatabase();
    setDatabase(other.database);
    try {
      cookie = await signedIn("context@example.com", "owner");
    } finally {
      setDatabase(test.database);
    }
  });
  afterAll(async () => {
    await other?.drop();
  });

  it("the server's context holds the process's services", () => {
    expect(TEST_ROUTE_CONTEXT.get(servicesContext)).toBe(processServices());
    expect(routerContext(INFO).get(servicesContext).database).toBe(test.database);
  });

  it("the sign-in page's loader checks the session with the context's database", async () => {
    const request = () => new Request("http://localhost:3000/admin?redirectTo=/dashboard/team", { headers: { cookie } });
    // The process's database knows no such session: the form.
    expect((await callRoute(loginLoader, request())).status).toBe(200);
    // A context whose services hold the other database: signed in, sent on.
    const context = routerContext(INFO, new Map(), createServices({ database: other.database }));
    const answer = await callRoute(loginLoader, request(), {}, context);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/dashboard/team");
  });

  it("outside a request the process's services are the current ones; inside, the request's", async () => {
    expect(currentServices()).toBe(processServices());
    expect(db()).toBe(test.database.db);
    const services = createServices({ database: other.database });
    await withServices(services, async () => {
      await Promise.resolve();
      expect(currentServices()).toBe(services);
      expect(db()).toBe(other.database.db);
    });
    expect(db()).toBe(test.database.db);
    // The root route declares the one middleware that does it for every request.
    expect(rootMiddleware).toHaveLength(1);
  });

  it("a public page's loader reads the context's database, and a resource route the context's storage", async () => {
    // A lawyer only the other database has.
    const services = createServices({ database: other.database });
    const member = await withServices(services, () => createTeamMember(memberInput("Contexta Lawyer"), TEST_ACTOR));
    const request = (suffix = "") => new Request(`http://localhost:3000/lawyer/${member.slug}${suffix}`);
    const params = { slug: member.slug };
    expect((await callRoute(lawyerLoader, request(), params)).status).toBe(404);
    const page = await callRoute<{ member: { full_name: string } }>(
      lawyerLoader,
      request(),
      params,
      routerContext(INFO, new Map(), services),
    );
    expect(page.status).toBe(200);
    expect(page.data.member.full_name).toBe("Contexta Lawyer");
    // Its PDF bio, made and kept in the context's storage (a folder of its own), not the process's.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "context-storage-"));
    try {
      const withStorage = createServices({ database: other.database, storage: diskStorage(folder) });
      const pdf = await callRoute(bioPdfLoader, request("/bio.pdf"), params, routerContext(INFO, new Map(), withStorage));
      expect(pdf.status).toBe(200);
      const kept = fs
        .readdirSync(folder, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".pdf"));
      expect(kept).toHaveLength(1);
      expect(fs.readFileSync(path.join(folder, kept[0])).subarray(0, 5).toString()).toBe("%PDF-");
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("a dashboard loader passes the guard on the context's database and reads the context's job queue", async () => {
    // The event is the other database's: the loader finds it there (the process's database has no such event).
    const event = await withServices(createServices({ database: other.database }), () =>
      createEvent(eventInput("Context seminar", -3 * 60 * 60_000), TEST_ACTOR),
    );
    const request = () =>
      new Request(`http://localhost:3000/dashboard/events/${event.id}/registrations/certificates`, { headers: { cookie } });
    const params = { id: String(event.id) };
    // On the process's services the session is unknown: refused as a page is (to the sign-in page).
    const refused = await callRoute(certificatesLoader, request(), params);
    expect(refused.status).toBe(302);
    expect(refused.location).toMatch(/^\/admin\?redirectTo=/);
    // The context's services: the session found in their database, the progress read from their queue.
    const asked: string[] = [];
    const queue = {
      boss: {
        findJobs: (name: string) => {
          asked.push(name);
          const data = { eventId: event.id, requestedAt: new Date().toISOString(), actor: { userId: null, label: "test", ip: "" } };
          return Promise.resolve([{ id: "job-1", state: "created", data, createdOn: new Date() }]);
        },
      },
    } as unknown as JobQueue;
    const context = routerContext(INFO, new Map(), createServices({ database: other.database, jobQueue: queue }));
    const answer = await callRoute(certificatesLoader, request(), params, context);
    expect(answer.status).toBe(200);
    expect(answer.data.progress).toMatchObject({ jobId: "job-1", status: "queued" });
    expect(asked).toHaveLength(1);
    // The process's own services were not touched.
    expect(processServices().jobQueue).toBeUndefined();
  });
});
