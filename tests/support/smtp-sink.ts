/**
 * A counting SMTP sink (the `smtp-server` package) for the mailing tests and
 * `npm run bench:mail`: it records each accepted message's recipients and
 * Message-ID without parsing the body, so it keeps up with thousands of
 * messages a minute. Several sinks may share one record (one listener per
 * instance, so a test knows which instance sent what).
 *
 * `decide` may hold a message: the sink then never answers its DATA, as a
 * server whose client died in the middle of the exchange would see it. A held
 * message is not accepted and not recorded. `startSmtpSinkProcess` runs a
 * sink in a process of its own, for a test whose process is busy while a
 * server sends.
 */
import { fork } from "node:child_process";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { freePort } from "./free-port";

/** One accepted message: its envelope recipients, Message-ID, the sink that took it, its size and when it was accepted (ms). */
export type SinkMessage = { to: string[]; messageId: string; subject: string; sink: string; bytes: number; at: number };

/** What startSmtpSinkProcess tells its sink process, and what the sink process tells it back (IPC). */
export type SinkProcessOptions = { name: string; acceptFirst?: number };
export type SinkProcessReport =
  { type: "ready"; url: string; port: number } | { type: "accepted"; message: SinkMessage } | { type: "held" };

export type SmtpSink = { name: string; url: string; port: number; close(): Promise<void> };

const HEADER_LIMIT = 16_384;

export async function startSmtpSink(options: {
  name: string;
  /** Accepted messages are pushed here (shared between sinks if wanted). */
  record: SinkMessage[];
  decide?: (message: SinkMessage) => "accept" | "hold";
}): Promise<SmtpSink> {
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      let head = "";
      let bytes = 0;
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (head.length < HEADER_LIMIT) head += chunk.toString("latin1");
      });
      stream.on("end", () => {
        const headers = head.split(/\r?\n\r?\n/, 1)[0] ?? "";
        const message: SinkMessage = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          messageId: /^message-id:\s*(<[^>\r\n]+>)/im.exec(headers)?.[1] ?? "",
          subject: /^subject:[ \t]*([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/im.exec(headers)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "",
          sink: options.name,
          bytes,
          at: Date.now(),
        };
        if (options.decide?.(message) === "hold") return; // never answered: not accepted
        options.record.push(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    name: options.name,
    url: `smtp://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The sink in a process of its own (smtp-sink-process.ts), for a test whose
 * process does long synchronous work while a server sends: an SMTP client
 * waits at most its socket timeout for an answer (the site: 10 s when a
 * person waits on the message, a minute for an Outbox job), and a sink held
 * up in the test's event loop would answer a message it had taken after the
 * client gave up on it, which the client then sends again.
 * It accepts the first `acceptFirst` messages (all without it) and holds every
 * one after them (`onHold` is called at the first). Accepted messages reach
 * `record` a moment after they are answered.
 */
export async function startSmtpSinkProcess(options: {
  name: string;
  record: SinkMessage[];
  acceptFirst?: number;
  onHold?: () => void;
}): Promise<SmtpSink> {
  const settings: SinkProcessOptions = { name: options.name, acceptFirst: options.acceptFirst };
  const child = fork(path.join(import.meta.dirname, "smtp-sink-process.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, SMTP_SINK_OPTIONS: JSON.stringify(settings) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<{ url: string; port: number }>((resolve, reject) => {
    child.on("message", (r: SinkProcessReport) => {
      if (r.type === "ready") resolve(r);
      else if (r.type === "accepted") options.record.push(r.message);
      else options.onHold?.();
    });
    void exited.then(() => reject(new Error(`the SMTP sink ${options.name} stopped before it listened`)));
  });
  const { url, port } = await ready;
  return {
    name: options.name,
    url,
    port,
    close: async () => {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}
