/**
 * What React DOM's server renderer gets for `async_hooks` in the server build
 * (vite.config.ts), instead of Node's AsyncLocalStorage.
 *
 * The renderer (react-dom-server.node.production.js) keeps the request being
 * rendered in an AsyncLocalStorage: `requestStorage.run(request, fn, request)`
 * around each synchronous pass of work, and `requestStorage.getStore()` only as
 * a fallback in `resolveRequest()` when its own `currentRequest` is not set —
 * for a `preload()`/`preinit()` called from code that runs outside a pass but
 * inside the request's async flow. Our components call them only while being
 * rendered, when `currentRequest` is set. Node's AsyncLocalStorage turns on
 * async_hooks for the whole process at its first `run()`, after which every
 * async resource of every request (each `process.nextTick`, write, timer and
 * promise) pays an init hook: on a page-cache hit that was several per cent
 * of the CPU time (docs/performance.md). This stand-in keeps the same
 * contract for synchronous calls: the store is set around the call.
 */
export class AsyncLocalStorage<T> {
  #store: T | undefined;

  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    const previous = this.#store;
    this.#store = store;
    try {
      return callback(...args);
    } finally {
      this.#store = previous;
    }
  }

  getStore(): T | undefined {
    return this.#store;
  }
}
