/**
 * Express's request and response methods on Node's own prototypes, so that
 * Express no longer gives each request it handles another prototype.
 *
 * Express 5 (`app.handle`) calls `Object.setPrototypeOf(req, app.request)` and
 * the same for `res` on every request it handles: V8 then gives those objects
 * other hidden classes than a plain `IncomingMessage`/`ServerResponse`, and
 * Node's own HTTP code (shared by every request of the process) meets both
 * kinds. Its inline caches turn polymorphic or megamorphic, and a page-cache
 * hit — answered before Express, on plain objects — pays for it: after 3,000
 * requests through Express a hit of `/cyber` cost 74–80k instructions, and
 * 66–72k with this change (a bare node:http server 66–67k; two runs each of
 * `npm run bench:instructions`, docs/performance.md).
 *
 * Here Express's `request` and `response` properties (its methods, getters
 * and `app`) are defined once on `http.IncomingMessage.prototype` and
 * `http.ServerResponse.prototype`, and `app.request`/`app.response` become
 * those prototypes: Express's `setPrototypeOf` then sets the prototype an
 * object already has, which V8 does without changing anything.
 *
 * Only when nothing collides: if a name Express defines is already on Node's
 * prototype chain (a Node or Express upgrade), nothing is changed and Express
 * works as it always did (returns false; `express-prototypes.test.ts` fails,
 * so the upgrade gets this looked at). One Express app per process (Node's
 * prototypes can hold one `app`); a second call returns false and changes nothing.
 */
import http from "node:http";
import type { Express } from "express";

let done = false;

/**
 * `prototypes`: those of the classes the server makes its requests and
 * responses with, when they extend Node's (./request-shapes.ts); they become
 * `app.request`/`app.response` instead of Node's own.
 */
export function expressOnNodePrototypes(app: Express, prototypes?: { request: object; response: object }): boolean {
  if (done) return false;
  const pairs = [
    [app.request, http.IncomingMessage.prototype],
    [app.response, http.ServerResponse.prototype],
  ] as const;
  const moves: { node: object; key: string | symbol; descriptor: PropertyDescriptor }[] = [];
  for (const [express, node] of pairs) {
    // Express's own objects between `app.request` and Node's prototype, nearest last (so that app.request's own win).
    const chain: object[] = [];
    for (let o: object | null = express; o && o !== node; o = Object.getPrototypeOf(o)) chain.unshift(o);
    if (Object.getPrototypeOf(chain[0] ?? node) !== node) return false; // not built on Node's prototype
    for (const o of chain) {
      for (const key of Reflect.ownKeys(o)) {
        if (key in node) return false;
        moves.push({ node, key, descriptor: Object.getOwnPropertyDescriptor(o, key)! });
      }
    }
  }
  for (const { node, key, descriptor } of moves) Object.defineProperty(node, key, descriptor);
  app.request = (prototypes?.request ?? http.IncomingMessage.prototype) as Express["request"];
  app.response = (prototypes?.response ?? http.ServerResponse.prototype) as Express["response"];
  done = true;
  return true;
}
