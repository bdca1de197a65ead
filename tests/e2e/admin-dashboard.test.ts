/**
 * The staff dashboard in Chromium against the built server: sign-in (wrong
 * then right password), create / edit / delete of a team member and an
 * article with a picture, every validation message, hours, headers, logout
 * (the old cookie no longer opens the dashboard), the edits on the public
 * pages, and axe on every dashboard screen.
 *
 * Each test stands alone: it signs in with its own session and page
 * (`staffPage`, tests/e2e/support.ts) and makes the member or article it
 * works on itself (the create form's POST), so one failure does not fail the
 * tests after it. Names carry a timestamp so other suites sharing the server
 * are not disturbed; what a test makes it deletes (to the Trash).
 */
import type { Page } from "playwright-core";
import { beforeAll } from "vitest";
import { describe, expect, it, onTestFinished } from "./fixture";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  articleForTest,
  axe,
  dashboardReady,
  deleteFromList,
  sendForm,
  signInAsStaff,
  testJpeg,
} from "./support";

const stamp = Date.now();
let jpeg: Buffer;

beforeAll(async () => {
  jpeg = await testJpeg();
});

const VIEWPORT = { viewport: { width: 1280, height: 900 } };

async function status(p: Page, text: string) {
  await p.getByTestId("status").getByText(text, { exact: true }).waitFor({ timeout: 15_000 });
}

async function noViolations(p: Page) {
  expect(await axe(p)).toEqual([]);
}

function fieldError(p: Page, id: string) {
  return p.locator(`#field-${id}-error`);
}

/**
 * A team member made for one test (the create form's POST): mobile, one area of practice (Cyber), one field of
 * expertise, one support staff member and a photo; deleted when the test ends.
 */
async function memberForTest(p: Page, label: string): Promise<string> {
  const name = `Edna ${label}${stamp}`;
  await sendForm(p, "/dashboard/lawyers/new", {
    full_name: name,
    title: "Associate",
    email: `edna.${label.toLowerCase()}${stamp}@example.com`,
    extension: "271",
    mobile: "416 555 0199",
    desc: "A bio written by the browser test.",
    AOP: "cyber",
    area_details: "Appeals",
    staff_name: "Sam Clerk",
    staff_title: "Law clerk",
    staff_email: "sam@example.com",
    staff_extension: "272",
    photo: { name: "portrait.jpg", mimeType: "image/jpeg", buffer: jpeg },
  });
  onTestFinished(() => deleteFromList("lawyers", name));
  return name;
}

describe("staff dashboard", () => {
  it("refuses a wrong password with the spec's message, keeps the e-mail, then signs in", async ({ base, newPage }) => {
    const { page } = await newPage(VIEWPORT);
    onTestFinished(() => page.context().close());
    const res = await page.goto(`${base}/dashboard/hours/edit`);
    expect(page.url()).toContain("/admin?redirectTo=%2Fdashboard%2Fhours%2Fedit");
    expect(res?.headers()["cache-control"]).toMatch(/no-store/);
    await page.waitForLoadState("networkidle");
    await noViolations(page);
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill("not-the-password-123");
    await page.getByRole("button", { name: "Login" }).click();
    await status(page, "An error occurred during login. Please contact your site administrator.");
    expect(await page.getByLabel("Email").inputValue()).toBe(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${base}/dashboard/hours/edit`);
    // Signed in: /admin goes to the dashboard.
    await page.goto(`${base}/admin`);
    await page.waitForURL(`${base}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
  });

  it("shows the four cards and the frame", async ({ base, staffPage }) => {
    const { page } = await staffPage(VIEWPORT);
    await page.goto(`${base}/dashboard`);
    await dashboardReady(page);
    for (const card of ["Manage Team", "Manage Articles", "Update Office Hours", "Update Page Headers"]) {
      expect(await page.getByRole("link", { name: new RegExp(card) }).count(), card).toBeGreaterThan(0);
    }
    expect(await page.getByRole("link", { name: "Dashboard home" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "LOGOUT" }).count()).toBe(1);
    await noViolations(page);
  });

  it("adds a team member: validation messages, chips, support staff, photo with size and preview", async ({ base, staffPage }) => {
    const { page } = await staffPage(VIEWPORT);
    const member = `Edna Tester${stamp}`;
    onTestFinished(() => deleteFromList("lawyers", member));
    await page.goto(`${base}/dashboard/lawyers`);
    await dashboardReady(page);
    await noViolations(page);
    await page.getByRole("link", { name: "ADD NEW TEAM MEMBER" }).click();
    await page.waitForURL(`${base}/dashboard/lawyers/new`);
    await dashboardReady(page);
    await noViolations(page);

    await page.getByRole("button", { name: "ADD TEAM MEMBER" }).click();
    await status(page, "Missing required fields.");
    expect(await fieldError(page, "full_name").textContent()).toBe("Full name is required.");
    expect(await page.locator("#field-full_name").getAttribute("aria-invalid")).toBe("true");
    await noViolations(page);

    await page.locator("#field-full_name").fill(member);
    await page.locator("#field-title").fill("Associate");
    await page.locator("#field-email").fill("not-an-email");
    await page.locator("#field-extension").fill("12a");
    await page.locator("#field-mobile").fill("416 555 0199");
    await page.locator("#field-desc").fill("A bio written by the browser test.");
    await page.getByRole("button", { name: "ADD TEAM MEMBER" }).click();
    await status(page, "Please correct the highlighted fields.");
    expect(await fieldError(page, "email").textContent()).toMatch(/valid email/);
    expect(await fieldError(page, "extension").textContent()).toBe("Extension must be a number (digits only).");
    await page.locator("#field-email").fill(`edna${stamp}@example.com`);
    await page.locator("#field-extension").fill("271");

    // Chips: added only when chosen and not already present; removable.
    await page.getByLabel("Area of practice", { exact: true }).selectOption("cyber");
    await page.getByRole("button", { name: "Add area of practice" }).click();
    await page.getByRole("button", { name: "Add area of practice" }).click(); // nothing chosen: nothing added
    await page.getByLabel("Area of practice", { exact: true }).selectOption("insurance");
    await page.getByRole("button", { name: "Add area of practice" }).click();
    expect(await page.getByRole("list", { name: "Areas of practice" }).getByRole("listitem").count()).toBe(2);
    await page.getByRole("button", { name: "Remove Insurance" }).click();
    expect(await page.getByRole("list", { name: "Areas of practice" }).getByRole("listitem").count()).toBe(1);
    await page.getByLabel("Field of expertise", { exact: true }).selectOption("Appeals");
    await page.getByRole("button", { name: "Add field of expertise" }).click();
    await page.getByRole("button", { name: "Remove Appeals" }).waitFor();

    // Support staff: hidden until ADD NEW STAFF MEMBER; all four fields required.
    expect(await page.getByLabel("Staff name").isVisible()).toBe(false);
    await page.getByRole("button", { name: "ADD NEW STAFF MEMBER" }).click();
    await page.getByLabel("Staff name").fill("Sam Clerk");
    await page.getByRole("button", { name: "SAVE NEW STAFF MEMBER" }).click();
    await status(page, "Please fill out all fields for the new support staff member.");
    await page.getByLabel("Staff title").fill("Law clerk");
    await page.getByLabel("Staff email").fill("sam@example.com");
    await page.getByLabel("Staff extension").fill("272");
    await page.getByRole("button", { name: "SAVE NEW STAFF MEMBER" }).click();
    await page.getByRole("button", { name: "Remove Sam Clerk" }).waitFor();
    await noViolations(page);

    await page.locator("#field-photo").setInputFiles({ name: "portrait.jpg", mimeType: "image/jpeg", buffer: jpeg });
    expect(await page.getByTestId("file-size").textContent()).toBe(`portrait.jpg: ${Math.max(1, Math.round(jpeg.length / 1024))} KB`);
    await page.getByRole("img", { name: "Preview of the chosen picture" }).waitFor();

    await page.getByRole("button", { name: "ADD TEAM MEMBER" }).click();
    await status(page, `${member} has been added successfully`);
    expect(page.url()).toBe(`${base}/dashboard/lawyers/new`);
    expect(await page.locator("#field-full_name").inputValue()).toBe(""); // a fresh form
    // Saved with what was chosen: the edit form shows it back.
    await page.goto(`${base}/dashboard/lawyers?q=${encodeURIComponent(member)}`);
    await dashboardReady(page);
    await page.getByRole("link", { name: `Edit ${member}` }).click();
    await page.waitForURL(/\/dashboard\/lawyer\//);
    await dashboardReady(page);
    expect(await page.locator("#field-mobile").inputValue()).toBe("416 555 0199");
    expect(await page.getByRole("button", { name: "Remove Cyber" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Remove Insurance" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Remove Sam Clerk" }).count()).toBe(1);
    expect(await page.getByRole("img", { name: `Current photo of ${member}` }).count()).toBe(1);
  });

  it("finds, edits (mobile is saved) and shows the member on the public page", async ({ base, newPage, staffPage }) => {
    const { page } = await staffPage(VIEWPORT);
    const member = await memberForTest(page, "Edit");
    await page.goto(`${base}/dashboard/lawyers?q=${encodeURIComponent(member.toUpperCase())}`);
    await dashboardReady(page);
    expect(await page.getByRole("list", { name: "Team members" }).getByRole("listitem").count()).toBe(1);
    await page.getByRole("link", { name: `Edit ${member}` }).click();
    await page.waitForURL(/\/dashboard\/lawyer\//);
    await dashboardReady(page);
    await noViolations(page);
    expect(await page.locator("#field-mobile").inputValue()).toBe("416 555 0199");
    await page.getByRole("img", { name: `Current photo of ${member}` }).waitFor();
    await page.getByRole("button", { name: "Remove Cyber" }).waitFor();
    await page.getByRole("button", { name: "Remove Sam Clerk" }).waitFor();

    await page.locator("#field-title").fill("");
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await status(page, "Missing required fields.");
    await page.locator("#field-title").fill("Partner");
    await page.locator("#field-mobile").fill("647 555 0123");
    await page.locator("#field-photo").setInputFiles({ name: "new.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await status(page, `${member} updated successfully`);
    await page.reload();
    await dashboardReady(page);
    expect(await page.locator("#field-title").inputValue()).toBe("Partner");
    expect(await page.locator("#field-mobile").inputValue()).toBe("647 555 0123");

    const { page: pub } = await newPage();
    onTestFinished(() => pub.context().close());
    const res = await pub.goto(`${base}/lawyer/${member.replace(/\s+/g, "-")}`);
    expect(res?.status()).toBe(200);
    expect(await pub.locator("h1").textContent()).toContain(member);
    expect(await pub.locator("body").textContent()).toContain("Partner");
  });

  it("asks before deleting a member; cancel keeps it, confirm removes it", async ({ base, staffPage }) => {
    const { page } = await staffPage(VIEWPORT);
    const member = await memberForTest(page, "Delete");
    await page.goto(`${base}/dashboard/lawyers?q=${encodeURIComponent(member)}`);
    await dashboardReady(page);
    // The confirmation panel used without JavaScript.
    const id = await page.locator('input[name="confirm"]').first().inputValue();
    await page.goto(`${base}/dashboard/lawyers?q=${encodeURIComponent(member)}&confirm=${id}`);
    await dashboardReady(page);
    await page.getByRole("region", { name: "Are you sure you want to delete this?" }).waitFor();
    await noViolations(page);
    await page
      .getByRole("button", { name: `Delete ${member}` })
      .last()
      .click();
    const dialog = page.getByRole("alertdialog", { name: "Are you sure you want to delete this?" });
    await dialog.waitFor();
    await noViolations(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    // Until the element itself is gone (its "close" event comes a moment after it stops being a dialog to the
    // accessibility tree, which is all `dialog` waits for): a click in between would not open it again.
    await page.locator("dialog").waitFor({ state: "detached" });
    expect(await page.getByRole("link", { name: `Edit ${member}` }).count()).toBe(1);
    await page
      .getByRole("button", { name: `Delete ${member}` })
      .last()
      .click();
    await dialog.waitFor();
    // Opened again in the moment between its closing and its "close" event (a fast keyboard, a busy browser): it opens and stays open.
    await page.evaluate((label) => {
      document.querySelector<HTMLDialogElement>("dialog")!.close();
      [...document.querySelectorAll<HTMLButtonElement>(`button[aria-label="${label}"]`)].at(-1)!.click();
    }, `Delete ${member}`);
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.locator("dialog").count()).toBe(1);
    // The delete held back until the test lets it through: the dialog stays open (the page behind it inert, so nothing
    // there can cancel the request), saying "Deleting…", until the server has answered; then the row is gone.
    const held = (url: URL) => url.pathname.startsWith("/dashboard/lawyers");
    let letThrough!: () => void;
    const released = new Promise<void>((resolve) => (letThrough = resolve));
    await page.route(held, async (route) => {
      if (route.request().method() === "POST") await released;
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await dialog.getByRole("button", { name: "Deleting…" }).waitFor();
    expect(await dialog.getAttribute("aria-busy")).toBe("true");
    await page.waitForTimeout(500);
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: `Edit ${member}` }).count()).toBe(1);
    letThrough();
    await status(page, `${member} has been deleted successfully`);
    await page.unroute(held);
    expect(await page.getByRole("link", { name: `Edit ${member}` }).count()).toBe(0);
    expect(await page.locator("dialog").count()).toBe(0);
  });

  it("adds an article: picture required, pin only for news, body in the editor", async ({ base, staffPage }) => {
    const { page } = await staffPage(VIEWPORT);
    const article = `Dashboard test article ${stamp}`;
    onTestFinished(() => deleteFromList("articles", article));
    await page.goto(`${base}/dashboard/articles`);
    await dashboardReady(page);
    await noViolations(page);
    await page.getByRole("link", { name: "ADD NEW ARTICLE" }).click();
    await page.waitForURL(`${base}/dashboard/articles/new`);
    await dashboardReady(page);
    await page.getByTestId("rich-text-editor").waitFor();
    await noViolations(page);

    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status(page, "Missing required fields.");
    expect(await fieldError(page, "photo").textContent()).toBe("Please upload an article image.");

    await page.locator("#field-title").fill(article);
    await page.locator("#field-category").selectOption("cyber");
    const pin = page.getByLabel("Pin to top");
    await page.getByLabel("No", { exact: true }).check();
    expect(await pin.isDisabled()).toBe(true);
    await page.getByLabel("Yes", { exact: true }).check();
    expect(await pin.isDisabled()).toBe(false);
    await pin.check();

    const body = page.getByRole("textbox", { name: /Article body/ });
    await body.click();
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type("Strong opening.");
    expect(await page.getByRole("button", { name: "Bold" }).getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.press("Enter");
    await page.keyboard.type("Second paragraph of the browser test.");
    await noViolations(page);

    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status(page, "Please upload an article image.");

    await page.locator("#field-photo").setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await page.getByTestId("file-size").waitFor();
    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status(page, "Article has been added successfully.");
    expect(await page.locator("#field-title").inputValue()).toBe("");
    // Saved as written: pinned, with the bold opening.
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(article)}`);
    await dashboardReady(page);
    await page.getByRole("link", { name: `Edit ${article}` }).click();
    await page.waitForURL(/\/dashboard\/articles\/\d+\/edit$/);
    await dashboardReady(page);
    expect(await page.getByLabel("Pin to top").isChecked()).toBe(true);
    expect(await page.getByTestId("rich-text-editor").locator("strong").textContent()).toBe("Strong opening.");
  });

  it("edits the article and shows it on the public page, then deletes it", async ({ base, newPage, staffPage }) => {
    const { page } = await staffPage(VIEWPORT);
    const article = await articleForTest(page, `Dashboard test article edit ${stamp}`);
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(article.toLowerCase())}`);
    await dashboardReady(page);
    await page.getByRole("link", { name: `Edit ${article}` }).click();
    await page.waitForURL(/\/dashboard\/articles\/\d+\/edit$/);
    await dashboardReady(page);
    await page.getByTestId("rich-text-editor").waitFor();
    await noViolations(page);
    expect(await page.getByLabel("Pin to top").isChecked()).toBe(true);
    await page.getByRole("img", { name: new RegExp(`Current picture of`) }).waitFor();

    await page.locator("#field-title").fill(" ");
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await status(page, "Missing required fields.");
    const edited = `${article} edited`;
    onTestFinished(() => deleteFromList("articles", edited));
    await page.locator("#field-title").fill(edited);
    await page.getByLabel("No", { exact: true }).check();
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await status(page, "Article was updated successfully.");
    expect(await page.getByLabel("Pin to top").isChecked()).toBe(false);

    const { page: pub } = await newPage();
    onTestFinished(() => pub.context().close());
    const res = await pub.goto(`${base}/post/${edited.replace(/\s+/g, "-")}`);
    expect(res?.status()).toBe(200);
    const text = await pub.locator("body").textContent();
    expect(text).toContain(edited);
    expect(text).toContain("Strong opening.");

    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(edited)}`);
    await dashboardReady(page);
    await page.getByRole("button", { name: `Delete ${edited}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await status(page, "Article has been deleted successfully.");
    expect(await page.getByRole("link", { name: `Edit ${edited}` }).count()).toBe(0);
  });

  it("updates office hours (blank refused) and restores them", async ({ base, staffPage }) => {
    const { page } = await staffPage(VIEWPORT);
    await page.goto(`${base}/dashboard/hours/edit`);
    await dashboardReady(page);
    await noViolations(page);
    const start = await page.getByLabel("Start time").inputValue();
    const end = await page.getByLabel("End time").inputValue();
    await page.getByLabel("Start time").fill("   ");
    await page.getByRole("button", { name: "SAVE HOURS" }).click();
    await status(page, "Start and end times cannot be blank");
    expect(await fieldError(page, "start_time").textContent()).toBe("Start and end times cannot be blank");
    await noViolations(page);
    await page.getByLabel("Start time").fill("8:30");
    await page.getByRole("button", { name: "SAVE HOURS" }).click();
    await status(page, "Hours updated successfully!");
    expect(await page.getByLabel("Start time").inputValue()).toBe("8:30");
    await page.getByLabel("Start time").fill(start);
    await page.getByLabel("End time").fill(end);
    // The last save's message is still shown: wait for this save's answer, not for the message.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/dashboard/hours")),
      page.getByRole("button", { name: "SAVE HOURS" }).click(),
    ]);
    await status(page, "Hours updated successfully!");
    await page.reload();
    await dashboardReady(page);
    expect(await page.getByLabel("Start time").inputValue()).toBe(start);
    expect(await page.getByLabel("End time").inputValue()).toBe(end);
  });

  it("updates one page header on its own and restores it", async ({ base, newPage, staffPage }) => {
    const { page } = await staffPage(VIEWPORT);
    await page.goto(`${base}/dashboard/headers/edit`);
    await dashboardReady(page);
    await noViolations(page);
    const field = page.getByLabel("Header text for the team page");
    const before = await field.inputValue();
    const news = await page.getByLabel("Header text for the news page").inputValue();
    await field.fill(`Team header ${stamp}`);
    await page.getByRole("button", { name: "Save the team page header" }).click();
    await status(page, "Header for team page has been updated successfully.");
    expect(await page.getByLabel("Header text for the team page").inputValue()).toBe(`Team header ${stamp}`);
    expect(await page.getByLabel("Header text for the news page").inputValue()).toBe(news);
    const { page: pub } = await newPage();
    onTestFinished(() => pub.context().close());
    const res = await pub.goto(`${base}/team`);
    expect(res?.status()).toBe(200);
    expect(await pub.locator("body").textContent()).toContain(`Team header ${stamp}`);
    await page.getByLabel("Header text for the team page").fill(before);
    // The last save's message is still shown: wait for this save's answer, not for the message.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/dashboard/headers")),
      page.getByRole("button", { name: "Save the team page header" }).click(),
    ]);
    await status(page, "Header for team page has been updated successfully.");
    await page.reload();
    await dashboardReady(page);
    expect(await page.getByLabel("Header text for the team page").inputValue()).toBe(before);
  });

  it("LOGOUT ends the session on the server: the old cookie no longer opens the dashboard", async ({ base, newPage, staffPage }) => {
    const { context, page } = await staffPage(VIEWPORT);
    await page.goto(`${base}/dashboard`);
    await dashboardReady(page);
    const cookies = await context.cookies();
    expect(cookies.some((c) => c.name.includes("session_token"))).toBe(true);
    await page.getByRole("button", { name: "LOGOUT" }).click();
    await page.waitForURL(`${base}/`);
    // The home page arrives as a document from the server (its own script, no framework), not through the dashboard's router.
    await page.waitForFunction(() => document.documentElement.dataset.enhanced === "true", undefined, { polling: 100 });
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    const { context: other, page: replay } = await newPage();
    onTestFinished(() => other.close());
    await other.addCookies(cookies);
    await replay.goto(`${base}/dashboard`);
    expect(replay.url()).toContain("/admin?redirectTo=%2Fdashboard");
    // A GET to /logout signs nobody out.
    await signInAsStaff(page, base);
    await page.goto(`${base}/logout`);
    await page.waitForURL(`${base}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
  });
});
