/**
 * The beacon endpoint for integration tests: a real node:http server that
 * answers /stats/beacon with the one handler server/app.ts uses
 * (app/.server/statistics/stats-beacon-http.ts), with the same cross-site check, client
 * address (TRUST_PROXY on, so a test sets the address with X-Forwarded-For)
 * and the routes of app/routes.ts with their handles.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { setEnvForTests } from "~/.server/env";
import { routeMatcher, type TableRoute } from "~/.server/http/route-table";
import { answerBeacon, isBeaconRequest } from "~/.server/statistics/stats-beacon-http";
import { clientIp } from "../../server/client-ip";
import { sameOrigin } from "../../server/same-origin";
import { routeModules } from "./route-modules";

export const BEACON_TEST_HEADERS = { "X-Content-Type-Options": "nosniff" };

/** Starts the server for this file (after the database is set up); `url()` is its base address, `routeOf` the routes' matcher. */
export function setUpBeaconServer(): { url: () => string; routeOf: (pathname: string) => TableRoute | undefined } {
  let server: http.Server;
  let base = "";
  let routeOf: (pathname: string) => TableRoute | undefined = () => undefined;
  beforeAll(async () => {
    setEnvForTests({ TRUST_PROXY: "true" });
    routeOf = routeMatcher(await routeModules());
    server = http.createServer((req, res) => {
      if (!isBeaconRequest(req.url)) return void res.writeHead(404).end();
      answerBeacon(req, res, {
        clientIp: clientIp(req),
        sameOrigin: sameOrigin(req.headers),
        routeOf,
        headers: BEACON_TEST_HEADERS,
        requestId: "beacon-test",
        done: () => undefined,
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: () => base, routeOf: (pathname) => routeOf(pathname) };
}
