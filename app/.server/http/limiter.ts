/**
 * A first-come, first-served limit on concurrent dynamic work (renders,
 * dashboard requests). Rendering and the embedded database share one
 * thread: admitting requests in order keeps the waiting time of each close
 * to the queue length divided by throughput, instead of letting some wait
 * behind ever-newer arrivals.
 */
export type Limiter = {
  acquire(): Promise<() => void>;
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
};

export function createLimiter(max: number): Limiter {
  let active = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  const acquire = () =>
    new Promise<() => void>((resolve) => {
      let released = false;
      const grant = () =>
        resolve(() => {
          if (released) return;
          released = true;
          release();
        });
      if (active < max) {
        active++;
        grant();
      } else {
        queue.push(grant);
      }
    });
  return {
    acquire,
    async run(work) {
      const done = await acquire();
      try {
        return await work();
      } finally {
        done();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
