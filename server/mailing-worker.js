// The mailings' SMTP sender, on a thread of its own (issue 31, decision 0024).
// A mailing sends ~200 messages a second; each is four SMTP exchanges and an
// 11 KB body run through nodemailer's dot-stuffing stream. On the server's one
// thread that took a quarter of it from the cached pages. Here it has its own
// event loop; the main thread keeps the database and the delivery rows and
// sends this thread whole messages (app/.server/mail/mail.ts, `sendSubscriberMail`).
//
// In: { id, from, to, raw } to send. The main thread ends it with terminate().
// Out: { id } once the SMTP server accepted the message, or
//      { id, error: { code, responseCode, response, message } } when it did not.
import { parentPort, workerData } from "node:worker_threads";
import nodemailer from "nodemailer";

const transport = nodemailer.createTransport(workerData.transport);

parentPort.on("message", ({ id, from, to, raw }) => {
  transport.sendMail({ envelope: { from, to: [to] }, raw }).then(
    () => parentPort.postMessage({ id }),
    (error) =>
      parentPort.postMessage({
        id,
        error: {
          code: error?.code,
          responseCode: error?.responseCode,
          response: error?.response,
          message: String(error?.message ?? error),
        },
      }),
  );
});
