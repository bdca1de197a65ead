/**
 * Insight subscriptions (issue 31) on a real database and a real SMTP
 * server: the CASL cases (no pre-ticked box, no bundled consent, withdrawal
 * at once, one-click POST without cookies, suppression after erasure), double
 * opt-in (expired and replayed links), one answer for every state of an
 * address, one confirmation an hour, the enquiry form's spam defences, and
 * what every subscriber message carries (identification, preferences link,
 * List-Unsubscribe headers, a plain-text part).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { db } from "~/.server/db/client";
import { mailOutbox, subscriberConsents, subscribers, subscriberSuppressions, subscriberTokens } from "~/.server/db/schema";
import {
  addressHash,
  CONFIRMATION_LIFETIME_MS,
  eraseSubscriber,
  findSubscriberByEmail,
  requestSubscription,
  sweepSubscribers,
  UNCONFIRMED_KEEP_MS,
  WITHDRAWN_KEEP_MS,
  withdrawConsent,
} from "~/.server/db/subscribers";
import { issueFormToken, MIN_FILL_SECONDS } from "~/.server/public-forms/spam-defence";
import { setEnvForTests } from "~/.server/env";
import { closeMail, mailFrom, queueStrandedMail, sendSubscriberMail } from "~/.server/mail/mail";
import { compileSkeleton, fillSkeleton } from "~/.server/mail/mail-skeleton";
import { systemActor } from "~/.server/db/audit";
import { oneClickUrl, preferencesToken, preferencesUrl } from "~/.server/subscriptions/links";
import { articleMessage } from "~/.server/subscriptions/messages";
import { SubscribeForm } from "~/components/public/subscribe-form";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { CONSENT_VERSION, CONSENT_WORDING, SUBSCRIBE_MSG, type SubscribeValues } from "~/lib/forms/subscribe";
import { FIRM } from "~/config/firm";
import * as confirmRoute from "~/routes/public/subscribe-confirm";
import * as oneClick from "~/routes/public/subscribe-one-click";
import * as preferences from "~/routes/public/subscribe-preferences";
import * as subscribePage from "~/routes/public/subscribe";
import * as dashboardRoute from "~/routes/admin/dashboard";
import { MemoryRouter } from "react-router";
import { heldMailCount } from "~/.server/db/outbox";
import { releaseHeldSignUpMail } from "~/.server/subscriptions/subscribe-form.server";
import { signedIn } from "../support/staff-session";
import { callRoute } from "../support/route-call";
import { setUpTestDatabase } from "../support/database";
import { mailDelivered, setUpMailQueue, setUpTestSmtp } from "../support/mail-queue";
import { guarded, testContext } from "../support/route-call";

const state = setUpTestDatabase();
const outbox = setUpMailQueue(state);
const sink = setUpTestSmtp();
const ORIGIN = "http://localhost:3000";

beforeEach(() => setEnvForTests({ SMTP_URL: sink.smtp.url }));

const readyToken = () => issueFormToken(Date.now() - (MIN_FILL_SECONDS + 1) * 1000);

type Answer = {
  status: number;
  data: { outcome: string; status: { text: string }; errors?: Record<string, string>; values?: SubscribeValues; token: string };
};

let ipCounter = 1;
async function subscribe(fields: Record<string, string | string[] | undefined>, ip = `198.51.100.${ipCounter++}`): Promise<Answer> {
  const body = new URLSearchParams();
  const all: Record<string, string | string[] | undefined> = { [TOKEN_FIELD]: readyToken(), [HONEYPOT_FIELD]: "", ...fields };
  for (const [k, v] of Object.entries(all)) {
    if (Array.isArray(v)) for (const item of v) body.append(k, item);
    else if (v !== undefined) body.append(k, v);
  }
  const request = new Request(`${ORIGIN}/subscribe`, { method: "POST", body, headers: { origin: ORIGIN } });
  const result = (await guarded(subscribePage.action, { request, params: {}, context: testContext(ip) })) as unknown as {
    data: Answer["data"];
    init: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, data: result.data };
}

function confirmLinkIn(text: string): string {
  const match = /https?:\/\/\S+\/subscribe\/confirm\/([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no confirmation link in: ${text}`);
  return match[1];
}

async function openConfirm(token: string, method: "GET" | "POST") {
  const request = new Request(`${ORIGIN}/subscribe/confirm/${token}`, { method, headers: method === "POST" ? { origin: ORIGIN } : {} });
  const fn = method === "GET" ? confirmRoute.loader : confirmRoute.action;
  const result = (await guarded(fn, { request, params: { token } })) as unknown as {
    data: { outcome: string };
    init: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, outcome: result.data.outcome };
}

async function subscribeAndConfirm(email: string, topics = ["insurance"]) {
  const answer = await subscribe({ email, topics, consent: "yes" });
  expect(answer.data.outcome).toBe("sent");
  await mailDelivered(outbox.queue);
  const mail = await sink.smtp.waitFor((m) => JSON.stringify(m.to).includes(email.toLowerCase()));
  const token = confirmLinkIn(mail.text ?? "");
  expect((await openConfirm(token, "POST")).outcome).toBe("confirmed");
  return (await findSubscriberByEmail(email))!;
}

describe("the sign-up form (CASL)", () => {
  it("shows the consent box unticked and on its own, with who asks, what for and how to withdraw; ticked again only by the person's own tick", () => {
    const shownAgain = (consent: boolean, outcome: "invalid" | "again") => ({
      outcome,
      status: { tone: "error" as const, text: outcome === "again" ? SUBSCRIBE_MSG.again : "Please correct the highlighted fields." },
      errors: outcome === "invalid" ? { topics: SUBSCRIBE_MSG.topics } : undefined,
      values: { email: "a@b.example", topics: outcome === "again" ? ["news"] : [], consent },
      token: "t",
    });
    for (const [state, ticked] of [
      [undefined, false],
      [shownAgain(false, "invalid"), false],
      [shownAgain(true, "invalid"), true],
      [shownAgain(true, "again"), true],
    ] as const) {
      const html = renderToStaticMarkup(createElement(SubscribeForm, { state, token: "t" }));
      const consent = /<input[^>]*id="subscribe-consent"[^>]*>/.exec(html)![0];
      // Never ticked by the site: only the person's own tick, sent with the form that came back, is kept.
      if (ticked) expect(consent).toMatch(/checked/);
      else expect(consent).not.toMatch(/checked/);
      // The only box that gives consent, labelled with the consent wording alone (nothing else is agreed to).
      expect(html.match(/name="consent"/g)).toHaveLength(1);
      const label = /<label for="subscribe-consent"[^>]*>([\s\S]*?)<\/label>/.exec(html)![1];
      expect(label.replace(/<[^>]+>/g, "")).toBe(`${CONSENT_WORDING} (required)`.replace(/&/g, "&amp;").replace(/'/g, "&#x27;"));
      for (const part of [FIRM.name, FIRM.phone, FIRM.email, "100 Wellington Street West", "withdraw my consent at any time"])
        expect(label).toContain(part);
      // Topics start unticked on a fresh form.
      if (!state) expect(html).not.toMatch(/name="topics"[^>]*checked/);
    }
  });

  it("refuses a request without consent or without a topic, and sends nothing", async () => {
    const before = sink.smtp.messages.length;
    const noConsent = await subscribe({ email: "no-consent@example.com", topics: ["cyber"] });
    expect(noConsent.status).toBe(400);
    expect(noConsent.data.errors?.consent).toBe(SUBSCRIBE_MSG.consent);
    const noTopic = await subscribe({ email: "no-topic@example.com", consent: "yes" });
    expect(noTopic.data.errors?.topics).toBe(SUBSCRIBE_MSG.topics);
    expect(await findSubscriberByEmail("no-consent@example.com")).toBeUndefined();
    expect(sink.smtp.messages.length).toBe(before);
  });

  it("keeps the enquiry form's spam defences: honeypot, timing token, per-address limit", async () => {
    const trap = await subscribe({ email: "robot@example.com", topics: ["news"], consent: "yes", [HONEYPOT_FIELD]: "x" });
    expect(trap.data.outcome).toBe("refused");
    const early = await subscribe({
      email: "robot@example.com",
      topics: ["news"],
      consent: "yes",
      [TOKEN_FIELD]: issueFormToken(),
    });
    expect(early.data.outcome).toBe("again");
    // Sent too soon: said in plain words, with everything typed and ticked kept (issue 42).
    expect(early.data.status.text).toBe(SUBSCRIBE_MSG.again);
    expect(early.data.values).toEqual({ email: "robot@example.com", topics: ["news"], consent: true });
    expect(await findSubscriberByEmail("robot@example.com")).toBeUndefined();
    const outcomes: string[] = [];
    for (let i = 0; i < 7; i++)
      outcomes.push((await subscribe({ email: `many${i}@example.com`, topics: ["news"], consent: "yes" }, "203.0.113.9")).data.outcome);
    expect(outcomes.slice(0, 5)).toEqual(["sent", "sent", "sent", "sent", "sent"]);
    expect(outcomes.slice(5)).toEqual(["refused", "refused"]);
  });
});

describe("double opt-in", () => {
  it("records the consent with its wording, version and form, and confirms once through the e-mailed link", async () => {
    const sub = await subscribeAndConfirm("Dana.Claims@Insurer.example", ["insurance", "news"]);
    expect(sub).toMatchObject({ email: "dana.claims@insurer.example", status: "confirmed", source: "web" });
    expect(sub.topics.sort()).toEqual(["insurance", "news"]);
    const history = await db().select().from(subscriberConsents).where(eq(subscriberConsents.subscriber_id, sub.id));
    expect(history.map((h) => h.event)).toEqual(["requested", "confirmed"]);
    expect(history[0]).toMatchObject({ wording: CONSENT_WORDING, wording_version: CONSENT_VERSION, form_url: `${ORIGIN}/subscribe` });
    // The confirmation e-mail is kept in the outbox without its link once delivered.
    await mailDelivered(outbox.queue);
    const [kept] = await db().select().from(mailOutbox).where(eq(mailOutbox.to_address, "dana.claims@insurer.example"));
    expect(kept.text_body).not.toContain("/subscribe/confirm/");
  });

  it("opening the link only shows a button (a scanner confirms nothing); a replayed link says it was used", async () => {
    await subscribe({ email: "replay@example.com", topics: ["cyber"], consent: "yes" });
    await mailDelivered(outbox.queue);
    const mail = await sink.smtp.waitFor((m) => JSON.stringify(m.to).includes("replay@example.com"));
    const token = confirmLinkIn(mail.text ?? "");
    expect(await openConfirm(token, "GET")).toEqual({ status: 200, outcome: "ready" });
    expect((await findSubscriberByEmail("replay@example.com"))!.status).toBe("pending");
    expect(await openConfirm(token, "POST")).toEqual({ status: 200, outcome: "confirmed" });
    expect(await openConfirm(token, "POST")).toEqual({ status: 410, outcome: "used" });
    expect(await openConfirm(token, "GET")).toEqual({ status: 410, outcome: "used" });
    expect(await openConfirm("not-a-real-token-at-all-0000", "POST")).toEqual({ status: 404, outcome: "invalid" });
  });

  it("an expired link (48 hours) says so and confirms nothing", async () => {
    const past = new Date(Date.now() - CONFIRMATION_LIFETIME_MS - 60_000);
    const { token } = await requestSubscription(
      { email: "late@example.com", topics: ["insurance"], formUrl: `${ORIGIN}/subscribe`, source: "web" },
      past,
    );
    expect(await openConfirm(token!, "POST")).toEqual({ status: 410, outcome: "expired" });
    expect((await findSubscriberByEmail("late@example.com"))!.status).toBe("pending");
  });

  it("answers the same for a new, pending, confirmed, unsubscribed and erased address, and e-mails at most once an hour", async () => {
    await subscribeAndConfirm("confirmed@example.com");
    const gone = await subscribeAndConfirm("gone@example.com");
    await oneClick.action({
      request: new Request(oneClickUrl(gone), { method: "POST" }),
      params: { token: preferencesToken(gone) },
    } as never);
    const erased = await subscribeAndConfirm("erased@example.com");
    await eraseSubscriber(erased.id, systemActor("test"));
    await subscribe({ email: "pending@example.com", topics: ["news"], consent: "yes" });

    const answers = [];
    for (const email of [
      "brand-new@example.com",
      "pending@example.com",
      "confirmed@example.com",
      "gone@example.com",
      "erased@example.com",
    ]) {
      const { status, data } = await subscribe({ email, topics: ["news"], consent: "yes" });
      answers.push({ status, outcome: data.outcome, text: data.status.text });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ status: 200, outcome: "sent", text: SUBSCRIBE_MSG.sent });

    // pending@ asked twice within the hour: one confirmation e-mail; erased@ got none after erasure.
    await mailDelivered(outbox.queue);
    const to = (address: string) => sink.smtp.messages.filter((m) => JSON.stringify(m.to).includes(address)).length;
    expect(to("pending@example.com")).toBe(1);
    expect(to("erased@example.com")).toBe(1); // the first confirmation only, before erasure
  });
});

/** Moves every e-mail a sign-up sent an hour and a bit into the past: the hourly limit no longer holds them back. */
async function anHourLater() {
  await db().execute(sql`update subscribers set confirmation_sent_at = confirmation_sent_at - interval '61 minutes'`);
  await db().execute(sql`update enquiry_attempts set at = at - interval '61 minutes'`);
  await db().execute(
    sql`update mail_outbox set created_at = created_at - interval '61 minutes', last_attempt_at = last_attempt_at - interval '61 minutes', next_attempt_at = next_attempt_at - interval '61 minutes'`,
  );
}

describe("limits per mailbox, not per string (issue 42)", () => {
  const to = (address: string) => sink.smtp.messages.filter((m) => JSON.stringify(m.to).includes(address)).length;
  const requested = async (email: string) => {
    const row = await findSubscriberByEmail(email);
    if (!row) return 0;
    const rows = await db().select().from(subscriberConsents).where(eq(subscriberConsents.subscriber_id, row.id));
    return rows.filter((r) => r.event === "requested").length;
  };

  it("sends one confirmation an hour to a mailbox, whatever its spelling (+tag, case, Gmail's dots and googlemail.com)", async () => {
    const spellings = ["mb.victim@example.com", "mb.victim+1@example.com", "MB.Victim+2@Example.com"];
    const gmail = ["mbvictim@gmail.com", "m.b.v.i.c.t.i.m@gmail.com", "mb.victim+x@googlemail.com"];
    const answers = [];
    for (const email of [...spellings, ...gmail]) answers.push((await subscribe({ email, topics: ["news"], consent: "yes" })).data.outcome);
    // The same answer for each: nobody learns that a variant was held back.
    expect(answers).toEqual(Array(6).fill("sent"));
    await mailDelivered(outbox.queue);
    expect(to("mb.victim@example.com")).toBe(1);
    expect(to("mb.victim+1@example.com") + to("mb.victim+2@example.com")).toBe(0);
    expect(to("mbvictim@gmail.com")).toBe(1);
    expect(to("m.b.v.i.c.t.i.m@gmail.com") + to("mb.victim+x@googlemail.com")).toBe(0);
    // No row for a spelling that was sent nothing (nothing asked, nothing to record).
    expect(await findSubscriberByEmail("mb.victim+1@example.com")).toBeUndefined();
  });

  it("keeps one 'Asked to subscribe' record per confirmation e-mail sent, not one per request", async () => {
    for (let i = 0; i < 5; i++) await subscribe({ email: "padded@example.com", topics: ["news"], consent: "yes" });
    await mailDelivered(outbox.queue);
    expect(to("padded@example.com")).toBe(1);
    expect(await requested("padded@example.com")).toBe(1);
    // A confirmed subscriber asking again is asked nothing: no record.
    const confirmed = await subscribeAndConfirm("steady@example.com");
    for (let i = 0; i < 3; i++) await subscribe({ email: "steady@example.com", topics: ["news"], consent: "yes" });
    expect(await requested(confirmed.email)).toBe(1);
  });

  it("a confirmed subscriber who signs up again gets one 'manage your subscription' e-mail an hour with their preferences link; topics unchanged", async () => {
    const steady = await subscribeAndConfirm("returning@example.com", ["insurance"]);
    await anHourLater();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await subscribe({ email: "Returning@example.com", topics: ["cyber"], consent: "yes" })).data);
    expect(answers.map((a) => a.status.text)).toEqual(Array(3).fill(SUBSCRIBE_MSG.sent));
    await mailDelivered(outbox.queue);
    const manage = sink.smtp.messages.filter((m) => JSON.stringify(m.to).includes("returning@example.com") && /Manage/.test(m.text ?? ""));
    expect(manage).toHaveLength(1);
    expect(manage[0].subject).toBe(`Your subscription to ${FIRM.name} insights`);
    // The link opens the person's own preferences page, where they add the topic themselves.
    const link = /https?:\/\/\S+\/subscribe\/preferences\/(\S+)/.exec(manage[0].text ?? "")?.[1];
    expect(link).toBeTruthy();
    const page = (await guarded(preferences.loader, {
      request: new Request(`${ORIGIN}/subscribe/preferences/${link}`),
      params: { token: link },
    })) as unknown as { data: { valid: boolean; email: string } };
    expect(page.data).toMatchObject({ valid: true, email: "returning@example.com" });
    expect((await findSubscriberByEmail("returning@example.com"))!.topics).toEqual(steady.topics);
    // Kept in the outbox without its link once delivered.
    const [kept] = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, "subscription-manage"));
    expect(kept.text_body).not.toContain("/subscribe/preferences/");
  });

  it("answers before any mail is sent, for a new and a confirmed address alike: the SMTP server still holds every message when the answers are back", async () => {
    const confirmed: string[] = [];
    for (let i = 0; i < 3; i++) confirmed.push((await subscribeAndConfirm(`held-known-${i}@example.com`)).email);
    await mailDelivered(outbox.queue);
    await anHourLater(); // so each confirmed address is sent its preferences link
    sink.smtp.delayMs = 5000; // the server takes 5 s to accept each message
    try {
      for (let i = 0; i < 3; i++) {
        for (const email of [`held-new-${i}@example.com`, confirmed[i]]) {
          const started = performance.now();
          expect((await subscribe({ email, topics: ["news"], consent: "yes" })).data.outcome).toBe("sent");
          // Sooner than the SMTP server can have accepted anything: the answer never waits for it.
          expect(performance.now() - started).toBeLessThan(5000);
        }
      }
      const kinds = async () =>
        (await db().select({ kind: mailOutbox.kind, status: mailOutbox.status }).from(mailOutbox)).filter((m) => m.status !== "sent");
      // None of the six accepted yet: each is in the outbox waiting for its job (mail-send), or still being written.
      expect((await kinds()).every((m) => m.status === "queued")).toBe(true);
    } finally {
      sink.smtp.delayMs = 0;
    }
    await mailDelivered(outbox.queue);
    const to = (pattern: RegExp) => sink.smtp.messages.filter((m) => pattern.test(JSON.stringify(m.to)));
    expect(to(/held-new-/)).toHaveLength(3);
    expect(to(/held-known-/).filter((m) => m.subject === `Your subscription to ${FIRM.name} insights`)).toHaveLength(3);
  });

  it("holds sign-up e-mails past the site-wide hourly cap, alerts owners on the dashboard (not editors), and lets them go as the hour allows", async () => {
    await mailDelivered(outbox.queue);
    await anHourLater(); // what earlier tests sent is more than an hour old
    setEnvForTests({ SMTP_URL: sink.smtp.url, SIGN_UP_EMAILS_PER_HOUR: "2" });
    onTestFinished(() => void setEnvForTests({ SIGN_UP_EMAILS_PER_HOUR: undefined }));
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push((await subscribe({ email: `flood-${i}@example.com`, topics: ["news"], consent: "yes" })).data.status.text);
    // The same answer for each: a bot learns nothing from the cap.
    expect(answers).toEqual(Array(5).fill(SUBSCRIBE_MSG.sent));
    await mailDelivered(outbox.queue);
    const flood = () => sink.smtp.messages.filter((m) => /flood-/.test(JSON.stringify(m.to))).length;
    expect(flood()).toBe(2);
    expect(await heldMailCount()).toBe(3);

    const dashboardFor = async (role: "owner" | "editor") => {
      const cookie = await signedIn(`${role}-cap@example.com`, role);
      return callRoute(dashboardRoute.loader, new Request(`${ORIGIN}/dashboard`, { headers: { cookie } }));
    };
    expect((await dashboardFor("owner")).data).toMatchObject({ held: 3, perHour: 2 });
    expect((await dashboardFor("editor")).data).toMatchObject({ held: 0 });
    const owner = (await dashboardFor("owner")).data;
    const html = renderToStaticMarkup(
      createElement(MemoryRouter, null, createElement(dashboardRoute.default as never, { loaderData: owner } as never)),
    );
    expect(html).toContain(
      "3 e-mails are held: the site&#x27;s limit of 2 sign-up e-mails an hour (SIGN_UP_EMAILS_PER_HOUR) has been reached",
    );

    // Within the hour nothing is let go; an hour on, two more go, and one waits for the next turn.
    expect(await releaseHeldSignUpMail()).toBe(0);
    await anHourLater();
    expect(await releaseHeldSignUpMail()).toBe(2);
    await queueStrandedMail();
    await mailDelivered(outbox.queue);
    expect(flood()).toBe(4);
    expect(await heldMailCount()).toBe(1);
  });

  it("refuses an address longer than RFC 5321 allows, with a clear message, and sends nothing", async () => {
    const long = `${"a".repeat(65)}@example.com`;
    const answer = await subscribe({ email: long, topics: ["news"], consent: "yes" });
    expect(answer.status).toBe(400);
    expect(answer.data.errors?.email).toBe(SUBSCRIBE_MSG.addressTooLong);
    const huge = `${"a".repeat(60)}@${"b".repeat(250)}.example`;
    expect((await subscribe({ email: huge, topics: ["news"], consent: "yes" })).data.errors?.email).toBe(SUBSCRIBE_MSG.addressTooLong);
    expect(await findSubscriberByEmail(long)).toBeUndefined();
  });
});

describe("withdrawal and erasure", () => {
  it("the preferences page (no sign-in) changes topics and unsubscribes at once", async () => {
    const sub = await subscribeAndConfirm("prefs@example.com", ["insurance"]);
    const token = preferencesToken(sub);
    const post = (fields: Record<string, string[] | string>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) body.append(k, item);
      return guarded(preferences.action, {
        request: new Request(`${ORIGIN}/subscribe/preferences/${token}`, { method: "POST", body, headers: { origin: ORIGIN } }),
        params: { token },
      });
    };
    const page = (await guarded(preferences.loader, {
      request: new Request(`${ORIGIN}/subscribe/preferences/${token}`),
      params: { token },
    })) as unknown as {
      data: { valid: boolean; email: string };
    };
    expect(page.data).toMatchObject({ valid: true, email: "prefs@example.com" });
    await post({ intent: "topics", topics: ["construction", "cyber"] });
    expect((await findSubscriberByEmail("prefs@example.com"))!.topics).toEqual(["construction", "cyber"]);
    await post({ intent: "unsubscribe" });
    const after = (await findSubscriberByEmail("prefs@example.com"))!;
    expect(after.status).toBe("unsubscribed");
    expect(after.withdrawn_at).not.toBeNull();
    const events = (await db().select().from(subscriberConsents).where(eq(subscriberConsents.subscriber_id, sub.id))).map((h) => h.event);
    expect(events).toEqual(["requested", "confirmed", "topics-changed", "withdrawn"]);
    // A forged or altered token opens nothing.
    const forged = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    const bad = (await guarded(preferences.loader, {
      request: new Request(`${ORIGIN}/subscribe/preferences/${forged}`),
      params: { token: forged },
    })) as unknown as {
      init: { status: number };
    };
    expect(bad.init.status).toBe(404);
  });

  it("a one-click POST without cookies or origin unsubscribes at once; a GET does not", async () => {
    const sub = await subscribeAndConfirm("oneclick@example.com");
    const token = preferencesToken(sub);
    const get = oneClick.loader({ request: new Request(oneClickUrl(sub)), params: { token } } as never);
    expect(get.status).toBe(303);
    expect((await findSubscriberByEmail("oneclick@example.com"))!.status).toBe("confirmed");
    const response = await oneClick.action({
      request: new Request(oneClickUrl(sub), {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      params: { token },
    } as never);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: { tone: "success", text: "You are unsubscribed." } });
    expect((await findSubscriberByEmail("oneclick@example.com"))!.status).toBe("unsubscribed");
  });

  it("erasure leaves only a hash on the suppression list; the address is never e-mailed again", async () => {
    const sub = await subscribeAndConfirm("erase-me@example.com");
    expect(await eraseSubscriber(sub.id, systemActor("test"))).toBe(true);
    expect(await findSubscriberByEmail("erase-me@example.com")).toBeUndefined();
    expect(await db().select().from(subscriberConsents).where(eq(subscriberConsents.subscriber_id, sub.id))).toEqual([]);
    expect(await db().select().from(subscriberTokens).where(eq(subscriberTokens.subscriber_id, sub.id))).toEqual([]);
    const [suppressed] = await db()
      .select()
      .from(subscriberSuppressions)
      .where(eq(subscriberSuppressions.address_hash, addressHash("ERASE-ME@example.com")));
    expect(suppressed.address_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await db().select().from(subscriberSuppressions))).not.toContain("erase-me");
    const before = sink.smtp.messages.length;
    expect((await subscribe({ email: "erase-me@example.com", topics: ["news"], consent: "yes" })).data.outcome).toBe("sent");
    expect(await requestSubscription({ email: "erase-me@example.com", topics: ["news"], formUrl: "import", source: "import" })).toEqual({
      subscriberId: null,
      token: null,
    });
    expect(await db().select().from(subscribers).where(eq(subscribers.email, "erase-me@example.com"))).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.smtp.messages.length).toBe(before);
  });
});

describe("retention", () => {
  it("deletes requests never confirmed after 30 days, and withdrawn records after three years (leaving a hash)", async () => {
    const old = new Date(Date.now() - UNCONFIRMED_KEEP_MS - 60_000);
    await requestSubscription({ email: "never-confirmed@example.com", topics: ["news"], formUrl: "f", source: "web" }, old);
    const left = await subscribeAndConfirm("left-long-ago@example.com");
    await withdrawConsent(left.id, "preferences", new Date(Date.now() - WITHDRAWN_KEEP_MS - 60_000));
    const recent = await subscribeAndConfirm("left-recently@example.com");
    await withdrawConsent(recent.id, "preferences");
    const result = await sweepSubscribers();
    expect(result).toMatchObject({ unconfirmedRemoved: 1, withdrawnErased: 1 });
    expect(await findSubscriberByEmail("never-confirmed@example.com")).toBeUndefined();
    expect(await findSubscriberByEmail("left-long-ago@example.com")).toBeUndefined();
    expect((await findSubscriberByEmail("left-recently@example.com"))!.status).toBe("unsubscribed");
    const [hash] = await db()
      .select()
      .from(subscriberSuppressions)
      .where(eq(subscriberSuppressions.address_hash, addressHash("left-long-ago@example.com")));
    expect(hash).toBeDefined();
  });
});

/** A subscriber's whole message as a mailing sends it: compiled once, filled in for one address. */
async function whole(
  message: { subject: string; text: string; html: string; headers?: Record<string, string> },
  to: string,
  messageId: string,
) {
  const skeleton = await compileSkeleton({ from: mailFrom(), ...message, headers: message.headers ?? {} });
  return { to, raw: fillSkeleton(skeleton, { to, messageId, fill: (text) => text }) };
}

describe("a message to a subscriber", () => {
  it("identifies the firm and carries the preferences link, List-Unsubscribe (RFC 8058) and a plain-text part", async () => {
    const sub = await subscribeAndConfirm("reader@example.com");
    const message = await articleMessage(
      {
        title: "Duty to defend after Smith v. Jones",
        summary: "What the Court of Appeal decided.",
        url: `${ORIGIN}/post/duty`,
        topicLabel: "Insurance Defence",
        date: "",
      },
      { preferencesUrl: preferencesUrl(sub), oneClickUrl: oneClickUrl(sub) },
    );
    const result = await sendSubscriberMail(await whole(message, sub.email, "<mailing-test-1@localhost>"));
    expect(result).toEqual({ status: "sent" });
    const mail = await sink.smtp.waitFor((m) => m.subject === "Duty to defend after Smith v. Jones");
    const header = (name: string) =>
      mail.headerLines
        .find((h) => h.key === name)
        ?.line.replace(/^[^:]+:\s*/, "")
        .replace(/\r?\n\s+/g, "");
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(header("list-unsubscribe")).toMatch(/^<http:\/\/localhost:3000\/subscribe\/one-click\/[^>]+>$/);
    expect(mail.text).toContain("Read the article: http://localhost:3000/post/duty");
    for (const part of [mail.text ?? "", String(mail.html)]) {
      expect(part).toContain(FIRM.name);
      expect(part).toContain("100 Wellington Street West");
      expect(part).toContain(FIRM.phone);
      expect(part).toContain("/subscribe/preferences/");
    }
    expect(String(mail.html)).toContain('lang="en"');
  });

  it("a 5xx answer is permanent, a missing SMTP server is temporary", async () => {
    sink.smtp.refuse = true;
    try {
      const refused = await sendSubscriberMail(
        await whole({ subject: "s", text: "t", html: "<p>t</p>" }, "x@example.com", "<m2@localhost>"),
      );
      expect(refused.status).toBe("permanent");
    } finally {
      sink.smtp.refuse = false;
    }
    setEnvForTests({ SMTP_URL: "smtp://127.0.0.1:9" });
    const down = await sendSubscriberMail(await whole({ subject: "s", text: "t", html: "<p>t</p>" }, "x@example.com", "<m3@localhost>"));
    expect(down.status).toBe("temporary");
    closeMail();
  });
});
