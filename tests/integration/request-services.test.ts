/**
 * Loaders, actions and the dashboard's guard get the services (database,
 * auth, job queue…) from React Router's request context
 * (`servicesContext`, app/.server/http/request-context.ts): a context
 * holding services other than the process's (app/.server/services.ts) is
 * what they use.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase, type Database } from "~/.server/db/client";
import { createEvent } from "~/.server/db/events";
import { routerContext, servicesContext } from "~/.server/http/request-context";
import type { JobQueue } from "~/.server/jobs/queue";
import { createServices, processServices } from "~/.server/services";
import { loader as loginLoader } from "~/routes/admin/login";
import { loader as certificatesLoader } from "~/routes/admin/event-certificates-progress";
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

  it("a dashboard loader passes the guard on the context's database and reads the context's job queue", async () => {
    const event = await createEvent(eventInput("Context seminar", -3 * 60 * 60_000), TEST_ACTOR);
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
