/**
 * The enquiry form in Chromium against the built server, with JavaScript
 * off (a plain HTML form: messages under the fields, everything typed kept,
 * "send again" when sent sooner than a person could, the confirmation) and
 * on (the home page's contact section posting to /contact); axe on /contact
 * (empty, with errors, sent), the home contact section and the Enquiries
 * screens; the Enquiries screens (state, note, who handled it, delete), on a
 * server of their own with enquiries each test sends itself; the dashboard
 * lists filtering as you type.
 */
import fs from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it, suiteServer } from "./fixture";
import { ENQUIRY_MSG } from "~/lib/forms/enquiry";
import { parseCsv } from "~/lib/csv";
import { ADMIN_EMAIL, axe } from "./support";

const stamp = Date.now();
const NOJS_NAME = `Nojs Sender ${stamp}`;
const JS_NAME = `Home Sender ${stamp}`;
/** A page's or an answer's token allows sending this long after it was rendered (public-forms/spam-defence.ts: the minimum 3 s). */
const PAGE_WAIT_MS = 3_300;
const ANSWER_WAIT_MS = PAGE_WAIT_MS;

async function fillValid(page: Page, name: string) {
  await page.getByRole("textbox", { name: /^Name/ }).fill(name);
  await page.getByRole("textbox", { name: /^E-mail/ }).fill(`sender${stamp}@example.com`);
  await page.getByRole("textbox", { name: /^Phone/ }).fill("416 555 0101");
  await page.getByRole("combobox", { name: /^Area of law/ }).selectOption("construction");
  await page.getByRole("textbox", { name: /^Message/ }).fill("A payment dispute on a condominium project: we need advice on a lien.");
  await page.getByRole("checkbox", { name: /I have read the notice above/ }).check();
}

const fieldError = (page: Page, name: string) => page.locator(`#enquiry-${name}-error`);

/**
 * Sends one enquiry from `name` to the server at `origin` as a browser without JavaScript would: the
 * form as /contact serves it (its hidden fields and timing token), sent as soon as the token allows.
 */
async function sendEnquiry(origin: string, name: string): Promise<void> {
  const contact = await (await fetch(`${origin}/contact`)).text();
  const form = new URLSearchParams();
  for (const [, field, value] of contact.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) form.set(field, value);
  form.set("name", name);
  form.set("email", `sender${stamp}@example.com`);
  form.set("phone", "416 555 0101");
  form.set("practice_area", "construction");
  form.set("message", "A payment dispute on a condominium project: we need advice on a lien.");
  form.set("consent", "yes");
  form.set("reference_code", ""); // the field no person sees, left empty
  const token = /^1\.([0-9a-z]+)\./.exec(form.get("form_token") ?? "");
  if (!token) throw new Error("/contact served no timing token");
  const notBefore = parseInt(token[1], 36);
  if (notBefore > Date.now()) await new Promise((resolve) => setTimeout(resolve, notBefore - Date.now() + 200));
  const res = await fetch(`${origin}/contact`, { method: "POST", body: form, headers: { origin } });
  const answer = await res.text();
  if (res.status !== 200 || !answer.includes("Your enquiry has been sent"))
    throw new Error(`the enquiry from ${name} was not sent (${res.status})`);
}

describe("the enquiry form with JavaScript off", () => {
  // Each test opens /contact in a page of its own (a browser context without JavaScript, closed when the test ends).
  let page: Page;
  it.beforeEach(async ({ newPage }) => {
    ({ page } = await newPage({ javaScriptEnabled: false }));
  });

  it("shows the notice above the form and links the privacy notice; the honeypot is not shown", async ({ base }) => {
    const res = await page.goto(`${base}/contact`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=5");
    const notice = page.getByText("Sending this form does not make Harrow Kline LLP your lawyers.", { exact: false });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/checked for conflicts of interest.*please do not send confidential details/s);
    expect(await page.getByRole("link", { name: "privacy notice" }).first().getAttribute("href")).toBe("/privacy");
    const box = await page.locator('input[name="reference_code"]').boundingBox();
    expect(box === null || box.x + box.width < 0).toBe(true);
  });

  it("is used by keyboard in reading order; the hidden field never takes focus", async ({ base }) => {
    await page.goto(`${base}/contact`);
    await page.locator("#enquiry-name").focus();
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      order.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || ""));
      await page.keyboard.press("Tab");
    }
    expect(order).toEqual([
      "enquiry-name",
      "enquiry-email",
      "enquiry-phone",
      "enquiry-practice_area",
      "enquiry-message",
      "enquiry-consent",
      "privacy notice",
      "Send",
    ]);
  });

  it("answers an empty form with a message under each field (400) and an alert", async ({ base }) => {
    await page.goto(`${base}/contact`);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Send" }).click(),
    ]);
    expect(response.status()).toBe(400);
    expect(response.headers()["cache-control"]).toBe("private, no-store");
    await page.waitForLoadState();
    expect(page.url()).toBe(`${base}/contact#enquiry`);
    expect(await fieldError(page, "name").textContent()).toBe("Name is required.");
    expect(await fieldError(page, "email").textContent()).toBe("E-mail is required.");
    expect(await fieldError(page, "practice_area").textContent()).toBe("Choose the area your enquiry is about.");
    expect(await fieldError(page, "message").textContent()).toBe("Message is required.");
    expect(await fieldError(page, "consent").textContent()).toBe("Please tick the box to confirm you have read the notice above.");
    expect(await page.locator("#enquiry-name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#enquiry-name").getAttribute("aria-describedby")).toBe("enquiry-name-error");
    expect(await page.getByRole("alert").getByText("Please correct the highlighted fields.").count()).toBe(1);
  });

  it("keeps everything typed when one field is wrong", async ({ base }) => {
    await page.goto(`${base}/contact`);
    await fillValid(page, NOJS_NAME);
    await page.getByRole("textbox", { name: /^E-mail/ }).fill("sender@");
    await page.getByRole("button", { name: "Send" }).click();
    await fieldError(page, "email").waitFor();
    expect(await fieldError(page, "email").textContent()).toBe("Enter a valid e-mail address, such as name@example.com.");
    expect(await fieldError(page, "name").count()).toBe(0);
    expect(await page.getByRole("textbox", { name: /^Name/ }).inputValue()).toBe(NOJS_NAME);
    expect(await page.getByRole("textbox", { name: /^Phone/ }).inputValue()).toBe("416 555 0101");
    expect(await page.getByRole("combobox", { name: /^Area of law/ }).inputValue()).toBe("construction");
    expect(await page.getByRole("textbox", { name: /^Message/ }).inputValue()).toMatch(/^A payment dispute/);
    expect(await page.getByRole("checkbox", { name: /I have read the notice above/ }).isChecked()).toBe(true);
  });

  it("sent sooner than a person could: asks to send again, keeping it all; then sends, with a clear confirmation", async ({ base }) => {
    await page.goto(`${base}/contact`);
    await fillValid(page, NOJS_NAME);
    // Filling in five fields may itself take 3 s on a busy machine: the answer to a first sending without the
    // consent tick carries a fresh token, and ticking the box and pressing Send again at once is sooner than 3 s.
    await page.getByRole("checkbox", { name: /I have read the notice above/ }).uncheck();
    await page.getByRole("button", { name: "Send" }).click();
    await fieldError(page, "consent").waitFor();
    await page.getByRole("checkbox", { name: /I have read the notice above/ }).check();
    await page.getByRole("button", { name: "Send" }).click(); // at once: the answer's token allows sending 3 s after it was made
    await page.getByText(ENQUIRY_MSG.again).waitFor();
    expect(await page.getByRole("checkbox", { name: /I have read the notice above/ }).isChecked()).toBe(true);
    expect(await page.getByRole("textbox", { name: /^Name/ }).inputValue()).toBe(NOJS_NAME);
    expect(await page.getByRole("textbox", { name: /^E-mail/ }).inputValue()).toBe(`sender${stamp}@example.com`);
    await page.waitForTimeout(ANSWER_WAIT_MS);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Send" }).click(),
    ]);
    expect(response.status()).toBe(200);
    await page.getByRole("heading", { name: "Enquiry sent" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain("Thank you. Your enquiry has been sent.");
    expect(await page.getByRole("button", { name: "Send" }).count()).toBe(0);
  });
});

describe("the enquiry form with JavaScript on", () => {
  // Each test in a page of its own (closed when the test ends).
  let page: Page;
  it.beforeEach(async ({ newPage }) => {
    ({ page } = await newPage({ viewport: { width: 1280, height: 900 } }));
  });

  it("/contact passes axe empty and with errors shown", async ({ base }) => {
    await page.goto(`${base}/contact`);
    await page.waitForLoadState("networkidle");
    expect(await axe(page)).toEqual([]);
    await page.getByRole("button", { name: "Send" }).click();
    await fieldError(page, "name").waitFor();
    expect(await axe(page)).toEqual([]);
    await page.goto(`${base}/privacy`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Privacy Notice");
    expect(await page.locator("main").textContent()).toContain("deleted automatically 180 days after they are received");
    expect(await axe(page)).toEqual([]);
  });

  it("sends from the home page's contact section and shows the confirmation (axe clean)", async ({ base }) => {
    await page.goto(`${base}/`);
    const loaded = Date.now();
    await page.waitForLoadState("networkidle");
    const section = page.locator("#contact");
    await section.scrollIntoViewIfNeeded();
    await section.getByRole("heading", { name: "Send us a message" }).waitFor();
    await page.waitForTimeout(800);
    expect(await axe(page)).toEqual([]);
    await fillValid(page, JS_NAME);
    await page.waitForTimeout(Math.max(0, PAGE_WAIT_MS - (Date.now() - loaded)));
    await section.getByRole("button", { name: "Send" }).click();
    await page.waitForURL(`${base}/contact#enquiry`);
    await page.getByRole("heading", { name: "Enquiry sent" }).waitFor();
    expect(await axe(page)).toEqual([]);
  });
});

describe("the Enquiries screens", () => {
  // A server of their own: each test sends the enquiries it reads (3 in all, within the per-address limit of
  // 5 an hour, which the shared server's form tests above count against) and signs in with a page of its own.
  const server = suiteServer();
  let origin: string;
  let page: Page;
  it.beforeEach(async ({ staffPage }) => {
    origin = server.url;
    ({ page } = await staffPage({ viewport: { width: 1280, height: 900 } }, "owner", origin));
  });
  const ready = async () => {
    await page.locator('main[data-hydrated="true"]').waitFor();
    await page.waitForLoadState("networkidle");
  };
  const status = (text: string) => page.getByTestId("status").getByText(text, { exact: true }).waitFor({ timeout: 15_000 });

  it("lists the enquiries, newest first, from the dashboard's card", async () => {
    const older = `Older Sender ${stamp}`;
    const newer = `Newer Sender ${stamp}`;
    await sendEnquiry(origin, older);
    await sendEnquiry(origin, newer);
    await page.goto(`${origin}/dashboard`);
    await ready();
    await page
      .getByRole("main")
      .getByRole("link", { name: /^Enquiries/ })
      .click(); // the card (the navigation has a link too)
    await page.waitForURL(`${origin}/dashboard/enquiries`);
    await ready();
    const list = page.getByRole("list", { name: "Enquiries" });
    const names = await list.getByRole("link").allTextContents();
    expect(names.indexOf(newer)).toBeGreaterThanOrEqual(0);
    expect(names.indexOf(newer)).toBeLessThan(names.indexOf(older));
    expect(await axe(page)).toEqual([]);
  });

  it("downloads the enquiries as CSV with the screen's link, and the export shows in Activity's own CSV", async () => {
    const sender = `Exported Sender ${stamp}`;
    await sendEnquiry(origin, sender);
    await page.goto(`${origin}/dashboard/enquiries`);
    await ready();
    const [enquiries] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export all enquiries (CSV)" }).click(),
    ]);
    expect(enquiries.suggestedFilename()).toMatch(/^enquiries-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv(fs.readFileSync(await enquiries.path(), "utf8"));
    expect(rows[0].slice(0, 4)).toEqual(["id", "received_utc", "name", "email"]);
    expect(rows.some((r) => r[2] === sender)).toBe(true);
    await page.goto(`${origin}/dashboard/activity?action=export`);
    await ready();
    const [activity] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export these entries (CSV)" }).click(),
    ]);
    const entries = parseCsv(fs.readFileSync(await activity.path(), "utf8")).slice(1);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((r) => r[3] === "export")).toBe(true);
    expect(entries.some((r) => r[4] === "enquiry" && /^Enquiries \(\d+\)$/.test(r[6]))).toBe(true);
  });

  it("sets the state and a note, shows who handled it; deletes it after confirmation", async () => {
    const sender = `Handled Sender ${stamp}`;
    await sendEnquiry(origin, sender);
    await page.goto(`${origin}/dashboard/enquiries`);
    await ready();
    await page.getByRole("link", { name: sender }).click();
    await page.waitForURL(/\/dashboard\/enquiries\/\d+$/);
    // The address changes before the enquiry replaces the list (a client-side navigation): wait for it.
    await page.getByRole("main").getByText("A payment dispute on a condominium project", { exact: false }).waitFor();
    await ready();
    expect(await page.locator("main").textContent()).toContain("A payment dispute on a condominium project");
    expect(await page.locator("main").textContent()).toContain("Nobody yet");
    expect(await axe(page)).toEqual([]);
    await page.getByRole("radio", { name: "In progress" }).check();
    await page.getByLabel("Staff note").fill("Conflict check clear; calling back.");
    await page.getByRole("button", { name: "SAVE" }).click();
    await status("Enquiry updated successfully.");
    expect(await page.getByRole("radio", { name: "In progress" }).isChecked()).toBe(true);
    expect(await page.getByLabel("Staff note").inputValue()).toBe("Conflict check clear; calling back.");
    expect(await page.locator("main").textContent()).toContain(`Handled by${ADMIN_EMAIL}`);
    expect(await axe(page)).toEqual([]);

    await page.getByRole("button", { name: new RegExp(`^Delete Enquiry #\\d+ from ${sender}$`) }).click();
    const dialog = page.getByRole("alertdialog", { name: "Are you sure you want to delete this?" });
    await dialog.waitFor();
    expect(await axe(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL(`${origin}/dashboard/enquiries`);
    await status("The enquiry has been deleted.");
    expect(await page.getByRole("link", { name: sender }).count()).toBe(0);
  });
});

describe("dashboard lists filter as you type", () => {
  it("filters the team list while typing, without pressing Search; the Search button still works", async ({ base, staffPage }) => {
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/dashboard/lawyers`);
    await page.locator('main[data-hydrated="true"]').waitFor();
    const rows = page.getByRole("list", { name: "Team members" }).getByRole("listitem");
    const all = await rows.count();
    expect(all).toBeGreaterThan(3);
    const search = page.getByLabel("Search by name");
    await search.pressSequentially("whitc", { delay: 60 });
    await page.waitForURL(/\?q=whitc$/);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Eleanor Whitcombe");
    expect(await page.locator("#search-count").textContent()).toBe("1 shown");
    // Focus and what was typed stay put while the list changes.
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await search.inputValue()).toBe("whitc");
    await search.fill("");
    await expect.poll(() => rows.count()).toBe(all);

    // The articles list too.
    await page.goto(`${base}/dashboard/articles`);
    await page.locator('main[data-hydrated="true"]').waitFor();
    const articles = page.getByRole("list", { name: /articles/i }).getByRole("listitem");
    const before = await articles.count();
    await page.getByLabel(/Search/).pressSequentially("zzzz-no-such-title", { delay: 20 });
    await expect.poll(() => page.getByText(/No articles match/).count()).toBe(1);
    await page.getByLabel(/Search/).fill("");
    await expect.poll(() => articles.count()).toBe(before);
  });

  it("without JavaScript the Search button submits the search", async ({ base, staffPage }) => {
    const { page } = await staffPage({ javaScriptEnabled: false });
    await page.goto(`${base}/dashboard/lawyers`);
    await page.getByLabel("Search by name").fill("whitc");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\?q=whitc$/);
    expect(await page.getByRole("list", { name: "Team members" }).getByRole("listitem").count()).toBe(1);
  });
});
