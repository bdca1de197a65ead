/**
 * A real SMTP server for tests (the `smtp-server` package, from the
 * nodemailer project), in-process on a free port. Received messages are
 * parsed with `mailparser`, so a test sees what a mail client would: the
 * subject, the plain-text part, the HTML part and the links in them.
 * `refuse` makes the server answer every recipient with a permanent error,
 * `refuseForNow` with a temporary one; `delayMs` makes it slow.
 */
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "./free-port";

export type TestSmtp = {
  url: string;
  port: number;
  messages: ParsedMail[];
  /** While true, every recipient is refused (550). */
  refuse: boolean;
  /** While true, every recipient is refused for now (451: try again later). */
  refuseForNow: boolean;
  /** Milliseconds the server takes to accept each message (a slow SMTP server). */
  delayMs: number;
  /** Resolves with the next message that arrives (or one already there that matches). */
  waitFor(match: (m: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
};

export async function startTestSmtp(): Promise<TestSmtp> {
  const port = await freePort();
  const messages: ParsedMail[] = [];
  const waiters = new Set<{ match: (m: ParsedMail) => boolean; resolve: (m: ParsedMail) => void }>();
  const state = { refuse: false, refuseForNow: false, delayMs: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refuse) {
        const error = Object.assign(new Error("Mailbox unavailable (test server refusing)"), { responseCode: 550 });
        return callback(error);
      }
      if (state.refuseForNow) {
        return callback(Object.assign(new Error("Try again later (test server busy)"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push(parsed);
          for (const w of waiters) {
            if (w.match(parsed)) {
              waiters.delete(w);
              w.resolve(parsed);
            }
          }
          if (state.delayMs) setTimeout(() => callback(), state.delayMs);
          else callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    get refuseForNow() {
      return state.refuseForNow;
    },
    set refuseForNow(value: boolean) {
      state.refuseForNow = value;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter))
            reject(new Error(`No matching e-mail arrived at the test SMTP server within ${timeoutMs} ms (${messages.length} received).`));
        }, timeoutMs).unref();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
