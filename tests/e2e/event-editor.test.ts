/**
 * The dashboard's events (issue 45) in Chromium, as an editor works: from the
 * dashboard's navigation to Manage Events, ADD NEW EVENT, the form filled in
 * and pressed (the description in the editor), the event's page opened from
 * "View on the site" and a place taken there by a visitor pressing Register;
 * then the time moved (the visitor's new calendar entry read from a real SMTP
 * server: same UID, SEQUENCE 1), the event cancelled after the confirmation
 * (METHOD:CANCEL), and deleted to the Trash. The three accessibility checkers
 * on each screen; 1280 px and 390 px without sideways scrolling. Nothing here
 * posts a form from code.
 */
import ICAL from "ical.js";
import { afterAll, beforeAll } from "vitest";
import { toFirmLocalInput } from "~/lib/firm-time";
import { startTestSmtp, type TestSmtp } from "../support/smtp";
import { checkScreen } from "./screen-check";
import { describe, expect, it, ownServer } from "./fixture";

/** The registration form's timing token allows sending this long after the page was rendered (the minimum 3 s). */
const ANSWER_WAIT_MS = 3_300;
const TITLE = `Builders' Liens Workshop ${Date.now()}`;
const DAY = 86_400_000;

let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
});
/** The file's own server (its base), sending through the test SMTP server. */
const server = ownServer(() => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Harrow Kline LLP <web@harrowkline.example>" } }));

function calendarOf(mail: { attachments: { filename?: string; content: Buffer }[] }) {
  const ics = mail.attachments.find((a) => a.filename === "event.ics")?.content.toString("utf8") ?? "";
  const calendar = new ICAL.Component(ICAL.parse(ics) as unknown[]);
  return { ics, calendar, vevent: calendar.getFirstSubcomponent("vevent")! };
}

describe("events on the dashboard", () => {
  const visitor = `visitor.${Date.now()}@example.com`;
  const editorEmail = `eve.${Date.now()}@example.com`;
  const start = new Date(Date.now() + 10 * DAY);
  start.setUTCHours(17, 0, 0, 0);

  it("an editor adds an event from the dashboard; a visitor registers; a move sends the new time; a cancellation cancels it", async ({
    staffPage,
    newPage,
  }) => {
    // An editor, invited by the owner on the Staff screen; the invitation's link read from the SMTP server and opened.
    const { page: owner } = await staffPage({ viewport: { width: 1280, height: 900 } }, "owner", server.url);
    await owner.goto(`${server.url}/dashboard/staff`);
    await owner.getByLabel("Email").fill(editorEmail);
    await owner.getByLabel("Role").selectOption("editor");
    await owner.getByRole("button", { name: "INVITE", exact: true }).click();
    const invitation = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(editorEmail), 60_000);
    const link = /https?:\/\/[^\s]+\/admin\/invitation\/[A-Za-z0-9_-]+/.exec(invitation.text ?? "")?.[0] ?? "";
    const { page } = await newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(link.replace(/^https?:\/\/[^/]+/, server.url));
    await page.getByLabel("Your name").fill("Eve Editor");
    await page.getByLabel("Choose a password").fill("an editor's long password 2026");
    await page.getByLabel("Type it again").fill("an editor's long password 2026");
    await page.getByRole("button", { name: "Set my password" }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByLabel("Email").fill(editorEmail);
    await page.getByLabel("Password").fill("an editor's long password 2026");
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByRole("navigation").getByRole("link", { name: "Events", exact: true }).first().click();
    await page.waitForURL(/\/dashboard\/events$/);
    await page.getByRole("heading", { name: "Manage Events" }).waitFor();
    await checkScreen(page, "dashboard-events");

    await page.getByRole("link", { name: "ADD NEW EVENT" }).click();
    await page.waitForURL(/\/dashboard\/events\/new$/);
    // Pressed with nothing filled in: words for each required field, focus on the first.
    await page.getByRole("button", { name: "ADD EVENT" }).click();
    await expect.poll(() => page.locator("#field-title-error").textContent()).toBe("Title is required.");
    await checkScreen(page, "dashboard-event-new");

    await page.getByLabel("Title").fill(TITLE);
    await page.getByLabel("Summary").fill("Preserving, perfecting and vacating liens under the Construction Act.");
    const editor = page.locator('[contenteditable="true"]').first();
    await editor.click();
    await page.keyboard.type("Timelines, holdback and the prompt payment regime.");
    await page.getByLabel("Start (required)").fill(toFirmLocalInput(start));
    await page.getByLabel("End (required)").fill(toFirmLocalInput(new Date(start.getTime() + 2 * 3_600_000)));
    await page.getByRole("radio", { name: "In person" }).check();
    await page.getByLabel("Practice area").selectOption("construction");
    await page.getByLabel("Venue").fill("Harrow Kline LLP, Boardroom");
    await page.getByLabel("Street address").fill("100 Wellington Street West");
    await page.getByLabel("Postal code").fill("M5K 1A1");
    await page.getByLabel("Places").fill("1");
    await page.getByRole("group", { name: "Guest speaker 1" }).getByLabel("Name").fill("Alex Moreau");
    await page.getByRole("group", { name: "Guest speaker 1" }).getByLabel("Organisation").fill("Moreau Scheduling");
    await page.getByLabel("Substantive hours").fill("1.5");
    await page.getByRole("radio", { name: "Published" }).check();
    await page.getByRole("button", { name: "ADD EVENT" }).click();
    await page.waitForURL(/\/dashboard\/events\/\d+\/edit$/);
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("Event added successfully.");
    await checkScreen(page, "dashboard-event-edit");

    // The visitor's side: the page the editor opens with "View on the site", and Register pressed there.
    const site = await page.getByRole("link", { name: "View on the site" }).getAttribute("href");
    const { page: visitorPage } = await newPage({ viewport: { width: 1280, height: 900 } });
    await visitorPage.goto(`${server.url}${site}`);
    expect(await visitorPage.locator("h1").textContent()).toBe(TITLE);
    expect(await visitorPage.locator("main dl").textContent()).toContain("Alex Moreau, Moreau Scheduling");
    await visitorPage.waitForTimeout(ANSWER_WAIT_MS);
    await visitorPage.getByRole("textbox", { name: /^Name/ }).fill("Pat Visitor");
    await visitorPage.getByRole("textbox", { name: /^E-mail/ }).fill(visitor);
    await visitorPage.getByRole("textbox", { name: /^Organisation/ }).fill("Lakeshore Builders");
    await visitorPage.getByRole("button", { name: "Register" }).click();
    await visitorPage.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    const confirmation = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(visitor), 60_000);
    const first = calendarOf(confirmation);

    // Moved a week later from the edit screen.
    const later = new Date(start.getTime() + 7 * DAY);
    await page.getByLabel("Start (required)").fill(toFirmLocalInput(later));
    await page.getByLabel("End (required)").fill(toFirmLocalInput(new Date(later.getTime() + 2 * 3_600_000)));
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await expect
      .poll(() => page.getByRole("status").first().textContent())
      .toContain("Everyone registered is being sent the new time and an updated calendar entry.");
    const moved = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(visitor) && m.subject === `New time: ${TITLE}`, 60_000);
    const second = calendarOf(moved);
    expect(second.vevent.getFirstPropertyValue("uid")).toBe(first.vevent.getFirstPropertyValue("uid"));
    expect(Number(second.vevent.getFirstPropertyValue("sequence"))).toBe(1);
    expect((second.vevent.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().getTime()).toBe(later.getTime());
    expect(moved.text).toContain("The event has moved to a new time");

    // Cancelled, after the confirmation.
    await page.getByRole("button", { name: "Cancel the event…" }).click();
    await page.getByRole("alertdialog").waitFor();
    await checkScreen(page, "dashboard-event-cancel");
    await page.getByRole("button", { name: "Yes, cancel the event" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("The event is cancelled.");
    const cancelled = await smtp.waitFor(
      (m) => JSON.stringify(m.to ?? "").includes(visitor) && m.subject === `Cancelled: ${TITLE}`,
      60_000,
    );
    const third = calendarOf(cancelled);
    expect(third.calendar.getFirstPropertyValue("method")).toBe("CANCEL");
    expect(third.vevent.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(Number(third.vevent.getFirstPropertyValue("sequence"))).toBe(2);
    await expect
      .poll(
        async () => {
          await visitorPage.goto(`${server.url}${site}`);
          return visitorPage.locator("main header").textContent();
        },
        { timeout: 15_000, interval: 1_000 },
      )
      .toContain("This event is cancelled.");

    // Deleted to the Trash from the list (the confirmation dialog).
    await page.getByRole("link", { name: "Manage Events" }).first().click();
    await page.waitForURL(/\/dashboard\/events$/);
    await page.getByRole("button", { name: `Delete ${TITLE}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("The event was moved to the Trash.");
    await page.goto(`${server.url}/dashboard/trash`);
    expect(await page.locator("main").textContent()).toContain(`${TITLE}Event · deleted`);
  });
});
