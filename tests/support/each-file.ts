/**
 * Run before each unit and integration test file (vitest.config.ts's setupFiles). The files of a worker share
 * its modules (isolate: false), so what one file set must not reach the next: the environment's overrides.
 */
import { resetEnvForTests } from "~/.server/env";

resetEnvForTests();
