import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Browser tests: Chromium (Debian's) against the built production server.
 *
 * Two files run at a time, each on a shared server of its own (global-setup.ts starts one per worker,
 * support.ts's sharedServerUrl picks it), so one file's content never shows in another's pages. Then the
 * files that mostly wait or kill and restart servers (WAITING_FILES), three at a time. Then the files that
 * measure time run one at a time, with no other browser file of their priority beside them (CI runs them in a
 * run of their own beside the first group, which then runs at a lower priority, decision 0028): the clusters
 * (NOTIFY within 3 s, a PostgreSQL outage's 5-second recovery), start and shutdown, the admission queue, the
 * enquiry pages' 5-second life, scroll animations, focus timing and autosaves. Last, the nginx cluster's files
 * (CLUSTER_FILES).
 *
 * Every server a file starts with the test settings starts on a copy of the data folder one first start left
 * (global-setup.ts, support.ts's newDataDir), and the pages are Debian's headless Chromium (decision 0028).
 */
export const SERIAL_FILES = [
  "a11y-keyboard-zoom",
  "admission",
  "article-drafts",
  "cache-multiprocess",
  "hit-path",
  "public-navigation",
  "reliability-lifecycle",
  "reliability-pg-outage",
  "server-lifecycle",
].map((name) => `tests/e2e/${name}.test.ts`);

/**
 * Files that spend most of their minutes waiting or restarting processes, and measure no time finer than their own
 * seconds-wide bounds, run three at a time after the first group (in CI with the PostgreSQL pass at a lower
 * priority): the scheduled minute on a cluster of two instances (editorial-schedule) and pg-boss's retry of the
 * message a killed server was sending (event-reminders-kill), each about three minutes, beside a lane of the two
 * files that kill a server mid-work and check what its restart finds (mailing-kill, reliability-crash: about two
 * and a half minutes together). Alone, each left most of the two cores idle.
 */
export const WAITING_FILES = ["editorial-schedule", "event-reminders-kill", "mailing-kill", "reliability-crash"].map(
  (name) => `tests/e2e/${name}.test.ts`,
);

/**
 * The files on the one nginx cluster of tests/e2e/cluster-fixture.ts, run last and alone like the serial
 * files, one after the other in one worker without isolation: the cluster (a worker-scoped fixture) starts
 * once for both.
 */
export const CLUSTER_FILES = ["multi-instance", "statistics"].map((name) => `tests/e2e/${name}.test.ts`);

/**
 * Started first in their group, in this order: the files of several minutes (the accessibility checkers on every
 * screen, the staff accounts' story; the two long waiting files), so the workers end together. Left to vitest's
 * order (by file size, with no earlier run on record), the public pages' checkers began last and ran alone.
 */
export const LONG_FILES = ["dashboard-a11y", "public-a11y", "staff-accounts", "editorial-schedule", "event-reminders-kill"].map(
  (name) => `tests/e2e/${name}.test.ts`,
);

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => LONG_FILES.indexOf(path.relative(import.meta.dirname, file.moduleId));
    const long = sorted.filter((file) => rank(file) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...long, ...sorted.filter((file) => rank(file) < 0)];
  }
}

/** Files of the first group running at once (and shared servers started for them). */
export const PARALLEL_WORKERS = 2;

/**
 * The projects' names (`--project`): global-setup.ts starts the shared servers and the HTML checker only for the
 * projects in the run that use them.
 */
export const PROJECTS = { first: "e2e", waiting: "e2e-waiting", serial: "e2e-serial", cluster: "e2e-cluster" } as const;

const resolve = { alias: { "~": path.resolve(import.meta.dirname, "app") } };
const options = {
  environment: "node",
  testTimeout: 90_000,
  hookTimeout: 120_000,
  pool: "forks",
  // it.concurrent tests of a file at once (vitest's default is 5): each is a Chromium page rendering and
  // checking, and two files run side by side on two cores.
  maxConcurrency: 3,
} as const;

export default defineConfig({
  resolve,
  test: {
    // Once for the whole run (the projects below do not extend this config, so they do not start it again).
    globalSetup: ["tests/e2e/global-setup.ts"],
    // The order of the files (vitest takes the sequencer of this root config, not a project's).
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        resolve,
        test: {
          ...options,
          name: PROJECTS.first,
          include: ["tests/e2e/**/*.test.ts"],
          exclude: [...SERIAL_FILES, ...WAITING_FILES, ...CLUSTER_FILES],
          maxWorkers: PARALLEL_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve,
        test: {
          ...options,
          name: PROJECTS.waiting,
          include: WAITING_FILES,
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve,
        test: {
          ...options,
          name: PROJECTS.serial,
          include: SERIAL_FILES,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        resolve,
        test: {
          ...options,
          name: PROJECTS.cluster,
          include: CLUSTER_FILES,
          fileParallelism: false,
          // One worker runs both files with one module graph, so the worker-scoped cluster is shared.
          isolate: false,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
