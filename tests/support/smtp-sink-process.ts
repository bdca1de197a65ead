/**
 * The counting SMTP sink (smtp-sink.ts) in a process of its own, started by
 * `startSmtpSinkProcess`: it answers every exchange on time however long the
 * test's own event loop is held (PGlite's WebAssembly runs synchronously in
 * the test's process). It tells its parent, over the IPC channel, its address,
 * each message it accepted, and the first message it held.
 */
import { startSmtpSink, type SinkProcessOptions, type SinkProcessReport } from "./smtp-sink";

const report = (r: SinkProcessReport) => process.send?.(r);
const { name, acceptFirst } = JSON.parse(process.env.SMTP_SINK_OPTIONS ?? "{}") as SinkProcessOptions;
let accepted = 0;
let held = false;

const sink = await startSmtpSink({
  name,
  record: [],
  decide(message) {
    if (acceptFirst !== undefined && accepted >= acceptFirst) {
      if (!held) report({ type: "held" });
      held = true;
      return "hold";
    }
    accepted++;
    report({ type: "accepted", message });
    return "accept";
  },
});
report({ type: "ready", url: sink.url, port: sink.port });
// The test's process closed the sink or is gone: so is the sink, held exchanges and all.
process.on("disconnect", () => process.exit(0));
