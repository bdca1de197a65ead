/**
 * Events and webinars in Chromium (issue 45), with the site's real headers
 * and a real SMTP server (tests/support/smtp.ts): /events reached from the
 * main navigation, filtered with plain links (JavaScript off too); the
 * seminar's page; the registration form pressed as a person presses it; the
 * confirmation e-mail read from the SMTP server (the calendar file attached,
 * the calendar links, the cancel link); the cancel link opened and Cancel my
 * registration pressed (Chromium posts it with `Origin: null`); the event
 * moved on its edit screen by staff, and the confirmation e-mail's cancel
 * link (the same in the "New time" e-mail) followed and pressed afterwards
 * by a registrant who cannot make it. The three
 * accessibility checkers on every page; 390 px and 1280 px without sideways
 * scrolling. Nothing here posts a form from code.
 */
import type { BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { REGISTRATION_MSG } from "~/lib/forms/registration";
import { EVENT_MSG } from "~/lib/forms/event";
import { startTestSmtp, type TestSmtp } from "../support/smtp";
import { runA11yCheckers } from "./a11y-checkers";
import { expectNoSidewaysScroll } from "./screen-check";
import { describe, expect, it, ownServer } from "./fixture";
import { newPage } from "./support";

/** The form's timing token allows sending this long after the page was rendered (the minimum 3 s). */
const ANSWER_WAIT_MS = 3_300;
const SEMINAR = "/event/Delay-Claims-Breakfast-Seminar";

let smtp: TestSmtp;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
});
/**
 * The file's own server (its base), sending through the test SMTP server; request log lines kept (LOG_LEVEL info):
 * the cancel link's token must not be in them.
 */
const server = ownServer(() => ({
  env: { SMTP_URL: smtp.url, MAIL_FROM: "Harrow Kline LLP <web@harrowkline.example>", LOG_LEVEL: "info" },
}));
// The page the tests share (the cancel link one test reads is pressed in the next): a context of the fixture's
// browser for the whole file (nothing intercepted, as in every context: the requests show the headers the network
// stack adds).
it.beforeAll(async ({ browser }) => {
  ({ context, page } = await newPage(browser, { viewport: { width: 1280, height: 900 } }));
});
afterAll(async () => {
  await context?.close();
});

async function press(p: Page, button: ReturnType<Page["getByRole"]>): Promise<{ headers: Record<string, string>; status: number }> {
  const [request] = await Promise.all([p.waitForRequest((r: Request) => r.method() === "POST"), button.click()]);
  const response = await request.response();
  return { headers: await request.allHeaders(), status: response?.status() ?? 0 };
}

/** Reloads the seminar's page until it shows `text` (the page cache keeps it up to 5 s). */
async function placesShown(text: string) {
  await expect
    .poll(
      async () => {
        await page.goto(`${server.url}${SEMINAR}`);
        return page.locator("main dl").textContent();
      },
      { timeout: 15_000, interval: 1_000 },
    )
    .toContain(text);
}

describe("the events list", () => {
  it("is linked from the main navigation and from /insights; upcoming first, then past; filters are plain links", async () => {
    await page.goto(`${server.url}/insights`);
    await page.locator("main").getByRole("link", { name: "Events & webinars" }).click();
    await page.waitForURL(/\/events$/);
    await page.goto(`${server.url}/`);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "events", exact: true }).click();
    await page.waitForURL(/\/events$/);
    expect(await page.locator("h1").textContent()).toBe("Events & Webinars");
    const headings = await page.locator("main h2").allTextContents();
    expect(headings).toEqual(["Upcoming events", "Past events and recordings"]);
    const upcoming = await page.getByRole("region", { name: "Upcoming events" }).locator("h3").allTextContents();
    expect(upcoming).toEqual(["Ransomware Claims in 2027: What Insurers Should Expect", "Delay Claims Breakfast Seminar"]);
    expect(await runA11yCheckers(page)).toEqual([]);
    await expectNoSidewaysScroll(page);

    await page.getByRole("navigation", { name: "Filter events by format" }).getByRole("link", { name: "Webinar" }).click();
    await page.waitForURL(/\/events\?format=webinar$/);
    expect(await page.locator("main h3").allTextContents()).toEqual(["Ransomware Claims in 2027: What Insurers Should Expect"]);
    await page.getByRole("navigation", { name: "Filter events by practice area" }).getByRole("link", { name: "construction" }).click();
    await page.waitForURL(/\/events\?area=construction&format=webinar$/);
    expect(await page.getByRole("status").textContent()).toBe("No events match these filters. Please check back shortly.");
    expect(await runA11yCheckers(page)).toEqual([]);
  });

  it("works with JavaScript off, and fits at 390 px", async ({ newPage }) => {
    const { page: p } = await newPage({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    await p.goto(`${server.url}/events`);
    await p.getByRole("navigation", { name: "Filter events by practice area" }).getByRole("link", { name: "insurance" }).click();
    await p.waitForURL(/\/events\?area=insurance$/);
    expect(await p.locator("main h3").allTextContents()).toEqual(["Ethics of Defence Reporting to Insurers"]);
    await expectNoSidewaysScroll(p);
    await p.screenshot({ path: "/tmp/events-390.png", fullPage: true });
    await p.goto(`${server.url}${SEMINAR}`);
    await expectNoSidewaysScroll(p);
    await p.screenshot({ path: "/tmp/event-390.png", fullPage: true });
  });
});

describe("an event's page and registration", () => {
  const stamp = Date.now();
  const person = `lawyer.${stamp}@example.com`;
  let cancelLink = "";

  it("shows the time in ET, the venue, linked speakers, CPD and places left; passes the three checkers", async () => {
    await page.goto(`${server.url}${SEMINAR}`);
    const details = await page.locator("main dl").textContent();
    expect(details).toContain("8:30 a.m. ET (2 hours)");
    expect(details).toContain("Harrow Kline LLP, Boardroom, 100 Wellington Street West, Suite 2100, Toronto, ON M5K 1A1");
    expect(details).toContain("This program is eligible for up to 1.5 Substantive Hours and 0.5 Professionalism Hours.");
    expect(details).toContain("12 places left");
    expect(await page.locator("main dl").getByRole("link", { name: "Sofia Marchetti" }).getAttribute("href")).toBe(
      "/lawyer/Sofia-Marchetti",
    );
    expect(details).toContain("Alex Moreau, P.Eng., Moreau Scheduling Consultants");
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(jsonLd.some((t) => t.includes('"@type":"Event"'))).toBe(true);
    expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toMatch(/^Delay Claims Breakfast Seminar/);
    expect(await runA11yCheckers(page)).toEqual([]);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: "/tmp/event-1280.png", fullPage: true });

    const webinar = await page.goto(`${server.url}/event/Ransomware-Claims-in-2027-What-Insurers-Should-Expect`);
    const html = (await webinar?.text()) ?? "";
    expect(html).toContain("Webinar: the link is e-mailed to registered attendees");
    expect(html).not.toContain("meet.example.com");
    const past = await page.goto(`${server.url}/event/Ethics-of-Defence-Reporting-to-Insurers`);
    expect(past?.status()).toBe(200);
    await page.getByRole("heading", { name: "Recording" }).waitFor();
    expect(await page.getByText(/limit of 6 hours a year/).count()).toBe(1);
    expect(await runA11yCheckers(page)).toEqual([]);
  });

  it("registers with the Register button and receives the confirmation e-mail with the calendar file and a cancel link", async () => {
    await page.goto(`${server.url}${SEMINAR}`);
    await page.getByRole("textbox", { name: /^Name/ }).fill("Jordan Counsel");
    await page.getByRole("textbox", { name: /^E-mail/ }).fill(person);
    await page.getByRole("textbox", { name: /^Organisation/ }).fill("Counsel LLP");
    await page.getByRole("textbox", { name: /^Accessibility needs/ }).fill("Step-free access");
    expect(await page.getByRole("checkbox", { name: /insights and client alerts/ }).isChecked()).toBe(false);
    await page.waitForTimeout(ANSWER_WAIT_MS);
    const sent = await press(page, page.getByRole("button", { name: "Register" }));
    // Post/Redirect/Get: the answer leads to the event's page saying the thanks in place of the form.
    expect(sent.status).toBe(303);
    await page.waitForURL(new RegExp(`${SEMINAR}\\?registration=sent#register$`));
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain(REGISTRATION_MSG.sent);
    expect(await runA11yCheckers(page)).toEqual([]);

    const mail = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(person), 60_000);
    expect(mail.subject).toBe("Registration confirmed: Delay Claims Breakfast Seminar");
    expect(mail.text).toContain("8:30 a.m. ET");
    expect(mail.text).toContain("Add to Google Calendar: https://calendar.google.com/");
    expect(mail.text).toContain("Add to Outlook.com: https://outlook.live.com/");
    const ics = mail.attachments.find((a) => a.filename === "event.ics");
    expect(ics?.content.toString()).toContain("BEGIN:VEVENT");
    cancelLink = /Cancel my registration: (\S+)/.exec(mail.text ?? "")?.[1] ?? "";
    expect(cancelLink.startsWith(`${server.url}/event/cancel/`)).toBe(true);

    // The page counts the place taken (a page holding the form is shared for 5 s at most: FORM_PAGE_SHARED_SECONDS).
    await placesShown("11 places left");
  });

  it("opens the cancel link, presses Cancel my registration (Chromium sends Origin: null) and sees it cancelled", async () => {
    const opened = await page.goto(cancelLink);
    expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
    await page.getByRole("heading", { name: "Cancel your registration" }).waitFor();
    expect(await runA11yCheckers(page)).toEqual([]);
    const cancelled = await press(page, page.getByRole("button", { name: "Cancel my registration" }));
    expect(cancelled.headers.origin).toBe("null");
    expect(cancelled.status).toBe(200);
    await page.getByRole("heading", { name: "Registration cancelled" }).waitFor();
    expect(await page.getByRole("status").textContent()).toBe(REGISTRATION_MSG.cancelled);
    await placesShown("12 places left");
  });

  it("a registrant told of a new time follows the confirmation's cancel link (the same in the moved e-mail) and cancels", async ({
    staffPage,
  }) => {
    const mover = "moved.registrant@example.com";
    await page.goto(`${server.url}${SEMINAR}`);
    await page.getByRole("textbox", { name: /^Name/ }).fill("Morgan Moved");
    await page.getByRole("textbox", { name: /^E-mail/ }).fill(mover);
    await page.getByRole("textbox", { name: /^Organisation/ }).fill("Moved LLP");
    await page.waitForTimeout(ANSWER_WAIT_MS);
    // Post/Redirect/Get: a valid registration is answered 303 to the page with the thanks.
    expect((await press(page, page.getByRole("button", { name: "Register" }))).status).toBe(303);
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    const confirmation = await smtp.waitFor(
      (m) => JSON.stringify(m.to ?? "").includes(mover) && (m.subject ?? "").startsWith("Registration confirmed"),
      60_000,
    );
    const confirmationLink = /Cancel my registration: (\S+)/.exec(confirmation.text ?? "")?.[1] ?? "";
    expect(confirmationLink.startsWith(`${server.url}/event/cancel/`)).toBe(true);

    // Staff move the seminar a day later on its edit screen.
    const { page: desk } = await staffPage({ viewport: { width: 1280, height: 900 } });
    await desk.goto(`${server.url}/dashboard/events`);
    await desk.getByRole("link", { name: "Edit Delay Claims Breakfast Seminar" }).click();
    await desk.waitForURL(/\/edit$/);
    await desk.locator('main[data-hydrated="true"]').waitFor();
    const dayLater = (value: string) => {
      const [date, time] = value.split("T");
      const next = new Date(`${date}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      return `${next.toISOString().slice(0, 10)}T${time}`;
    };
    for (const label of [/^Start\b/, /^End\b/]) {
      const field = desk.getByLabel(label);
      await field.fill(dayLater(await field.inputValue()));
    }
    await desk.getByRole("button", { name: "SAVE CHANGES" }).click();
    await desk.getByText(EVENT_MSG.moved, { exact: false }).waitFor({ timeout: 30_000 });

    const moved = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(mover) && (m.subject ?? "").startsWith("New time"), 60_000);
    expect(moved.subject).toBe("New time: Delay Claims Breakfast Seminar");
    // The "New time" e-mail carries the same cancel link as the confirmation, which still works after the move:
    // the registrant follows the confirmation's link.
    const link = /Cancel my registration: (\S+)/.exec(moved.text ?? "")?.[1] ?? "";
    expect(link).toBe(confirmationLink);
    await page.goto(confirmationLink);
    await page.getByRole("heading", { name: "Cancel your registration" }).waitFor();
    expect((await press(page, page.getByRole("button", { name: "Cancel my registration" }))).status).toBe(200);
    await page.getByRole("heading", { name: "Registration cancelled" }).waitFor();
    expect(await page.getByRole("status").textContent()).toBe(REGISTRATION_MSG.cancelled);
    // The request log wrote the link's address as its route's pattern, never its token.
    const tokens = [cancelLink, confirmationLink].map((l) => l.split("/").pop()!);
    await expect.poll(() => server.output().includes('"path":"/event/cancel/:token"'), { timeout: 10_000 }).toBe(true);
    for (const token of tokens) expect(server.output()).not.toContain(token);
  });

  it("serves the calendar file", async () => {
    const res = await page.request.get(`${server.url}${SEMINAR}.ics`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/calendar/);
    expect(await res.text()).toContain("SUMMARY:Delay Claims Breakfast Seminar");
  });
});
