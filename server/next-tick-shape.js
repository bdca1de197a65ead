// One process.nextTick resource kept for the life of the process (server.js calls this first).
//
// Every process.nextTick makes an object of the same shape (its async ids, callback and arguments),
// and V8 optimises the object literal for the one hidden-class chain it has seen. Only those
// short-lived objects hold that chain: when it is collected and made again (during start-up, the
// embedded database loading its pg_trgm extension did it), V8 marks the literal's property stores
// megamorphic and takes its slow path for every nextTick from then on, for good. On a page-cache hit
// that was ~3-5 µs of CPU (a sixth of the hit's JavaScript), found with `npm run bench:profile`
// (docs/performance.md). Holding one such object keeps the chain alive.
//
// Public API only (`executionAsyncResource()` inside a nextTick callback is that tick's object): if
// Node changes how nextTick works this merely stops helping. next-tick-shape.test.ts fails when the
// kept object no longer looks like a nextTick's, so that a Node upgrade gets this checked again.
import { executionAsyncResource } from "node:async_hooks";

let kept;

/** Keeps a nextTick resource; resolves to it. */
export function keepNextTickShape() {
  return new Promise((resolve) => {
    process.nextTick(() => {
      kept ??= executionAsyncResource();
      resolve(kept);
    });
  });
}
