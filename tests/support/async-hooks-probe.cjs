// Loaded into a server under test (`node --require`): on SIGUSR2 it writes to stderr how many
// AsyncLocalStorage instances have async_hooks on in that process, and whether it sees one more
// when it switches one on itself ("[async-hooks-probe] 0 self-check ok").
// Node 20 and 22 propagate each enabled AsyncLocalStorage's store to every new async resource
// as an own symbol property described "kResourceStore": a fresh Timeout has one per enabled
// instance. The self-check makes a Node that works otherwise fail the test (tests/e2e/hit-path.test.ts)
// instead of passing it vacuously with a count of 0.
const { AsyncLocalStorage, executionAsyncResource } = require("node:async_hooks");

const enabledHere = () =>
  Object.getOwnPropertySymbols(executionAsyncResource()).filter((symbol) => symbol.description === "kResourceStore").length;

process.on("SIGUSR2", () => {
  setTimeout(() => {
    const enabled = enabledHere();
    const own = new AsyncLocalStorage();
    own.run(true, () => {
      setTimeout(() => {
        const seen = enabledHere();
        own.disable();
        process.stderr.write(`[async-hooks-probe] ${enabled} self-check ${seen === enabled + 1 ? "ok" : `failed (${seen})`}\n`);
      }, 0);
    });
  }, 0);
});
