/**
 * Requests for express consent to imported addresses with implied consent
 * (issue 42 item 5): the `consent-requests` job sends those staff asked for
 * ("Ask for consent" on Subscribers), at most CONSENT_REQUESTS_PER_DAY a
 * firm day; the rest wait for the next day. Each is kept in the outbox with
 * its claim and the job that sends it (one transaction); a request for consent is itself a
 * commercial electronic message, so it goes only while implied consent lasts.
 */
import { claimConsentRequests } from "../db/subscriber-imports";
import { getEnv } from "../env";
import { keepMail, type MailMessage } from "../mail/mail";
import { confirmUrl } from "./links";
import { consentRequestMessage } from "./messages";

export async function sendConsentRequests(now = new Date()): Promise<{ consentRequestsSent: number }> {
  const kept = await claimConsentRequests(
    getEnv().CONSENT_REQUESTS_PER_DAY,
    async (tx, request) => {
      const message: MailMessage = {
        kind: "consent-request",
        to: request.email,
        sensitive: true,
        ...(await consentRequestMessage({ confirmUrl: confirmUrl(request.token), topics: request.topics })),
      };
      return keepMail(tx, message);
    },
    now,
  );
  return { consentRequestsSent: kept.length };
}
