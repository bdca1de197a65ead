// The mailings' SMTP sender, on a thread of its own (issue 31, decision 0024).
// Each message is four SMTP exchanges and its body run through nodemailer's
// dot-stuffing stream: at SUBSCRIBER_MAIL_RATE that work would take a large
// share of the thread that answers the pages. Here it has its own event loop;
// the main thread keeps the database and the delivery rows and sends this
// thread whole messages (app/.server/mail/mail.ts, `sendSubscriberMail`).
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
