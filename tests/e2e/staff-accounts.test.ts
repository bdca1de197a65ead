/**
 * Staff accounts in Chromium, as new users would (issue 11's "Done when"),
 * against the built server with SMTP_URL pointing at an SMTP server started
 * here: the owner invites an editor; the e-mail arrives (text and HTML, a
 * working link); the editor sets a password, sets up TOTP (codes computed from
 * the key shown on the page), signs out, signs in with password and code,
 * edits an article, gets the 403 page on the Staff screen and 403 (nothing
 * written) when posting to its actions; the owner sees both changes on the
 * Activity screen with the right names, deactivates the editor, whose open
 * session stops working on its next request. Also: "Forgot password?",
 * expired/forged links, the Outbox and My account; axe on every new screen.
 *
 * Each test stands alone: the owner's signed-in page comes from `staffPage`,
 * and a test that needs an editor invites its own (a fresh address), which
 * accepts the invitation and signs in on a page of its own (`newEditor`), so
 * one failure does not fail every later step.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startTestSmtp, type TestSmtp } from "../support/smtp";
import { authenticator } from "../support/totp";
import { describe, expect, it, onTestFinished, ownServer, type OpenPage } from "./fixture";
import { ADMIN_EMAIL, articleForTest, axe, DASHBOARD_NAV, deleteFromList } from "./support";

const stamp = Date.now();
const EDITOR_NAME = "Eddie Editor";
const EDITOR_PASSWORD = "a long editor passphrase";
const VIEWPORT = { viewport: { width: 1280, height: 900 } };
let smtp: TestSmtp;
let editors = 0;

beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
});
/** The file's own server (its base), sending through the test SMTP server. */
const server = ownServer(() => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Harrow Kline LLP <web@harrowkline.example>" } }));

/** A new address for the editor one test invites. */
function editorAddress(): string {
  editors += 1;
  return `editor${stamp}-${editors}@example.com`;
}

/** The fixture's `newPage` (a page of a browser context of its own, closed when the test ends). */
type NewPage = (options: typeof VIEWPORT) => Promise<OpenPage>;

async function ready(p: Page) {
  await p.locator('main[data-hydrated="true"]').waitFor();
  await p.waitForLoadState("networkidle");
}

async function status(p: Page, text: string | RegExp) {
  const region = p.getByTestId("status");
  try {
    if (typeof text === "string") await region.getByText(text, { exact: true }).waitFor({ timeout: 15_000 });
    else await region.getByText(text).waitFor({ timeout: 15_000 });
  } catch (error) {
    throw new Error(`status ${String(text)} not shown; the region says ${JSON.stringify(await region.textContent())} at ${p.url()}`, {
      cause: error,
    });
  }
}

async function noViolations(p: Page) {
  expect(await axe(p)).toEqual([]);
}

/** What an authenticator app shows now for the key on the page. */
async function totp(key: string, offset = 0) {
  const otp = authenticator(key);
  return offset ? otp.hotp(Math.floor(Date.now() / 30_000) + offset) : otp.totp();
}

async function signIn(p: Page, email: string, password: string) {
  await p.goto(`${server.url}/admin`);
  await p.getByLabel("Email").fill(email);
  await p.getByLabel("Password").fill(password);
  await p.getByRole("button", { name: "Login" }).click();
}

/** The owner invites `email` as an editor from the Staff screen; returns the link of the e-mail that arrives. */
async function invite(p: Page, email: string): Promise<string> {
  await p.goto(`${server.url}/dashboard/staff`);
  await ready(p);
  await p.getByLabel("Email").fill(email);
  await p.locator("#field-role").selectOption("editor");
  await p.getByRole("button", { name: "INVITE", exact: true }).click();
  await status(p, `${email} has been invited as editor. The e-mail has been sent.`);
  const mail = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(email));
  const link = new RegExp(`${server.url}/admin/invitation/[A-Za-z0-9_-]+`).exec(mail.text ?? "")?.[0];
  if (!link) throw new Error(`no invitation link in the e-mail to ${email}`);
  return link;
}

/** The invited person follows `link` and sets their name and password. */
async function acceptInvitation(e: Page, link: string, name: string) {
  await e.goto(link);
  await e.getByRole("heading", { name: "Accept your invitation" }).waitFor();
  await e.getByLabel("Your name").fill(name);
  await e.getByLabel("Choose a password").fill(EDITOR_PASSWORD);
  await e.getByLabel("Type it again").fill(EDITOR_PASSWORD);
  await e.getByRole("button", { name: "Set my password" }).click();
  await e.waitForURL(`${server.url}/admin`);
  await status(e, /^Welcome! Your password is set/);
}

/**
 * An editor of the test's own: invited by the owner on `owner`, the invitation accepted, signed in on
 * a page of its own (on the dashboard).
 */
async function newEditor(newPage: NewPage, owner: Page, name = EDITOR_NAME): Promise<{ email: string; page: Page }> {
  const email = editorAddress();
  const link = await invite(owner, email);
  const { page } = await newPage(VIEWPORT);
  await acceptInvitation(page, link, name);
  await signIn(page, email, EDITOR_PASSWORD);
  await page.waitForURL(`${server.url}/dashboard`);
  await ready(page);
  return { email, page };
}

/** The signed-in editor on `e` turns on two-factor sign-in from My account; returns the key shown. */
async function turnOnTwoFactor(e: Page): Promise<string> {
  await e.goto(`${server.url}/dashboard/account/two-factor`);
  await ready(e);
  await e.getByLabel("Current password").fill(EDITOR_PASSWORD);
  await e.getByRole("button", { name: "CONTINUE" }).click();
  await status(e, /^Scan the QR code/);
  const key = ((await e.getByTestId("totp-secret").textContent()) ?? "").replace(/\s+/g, "");
  await e.getByLabel("Code from the app").fill(await totp(key));
  await e.getByRole("button", { name: "TURN ON" }).click();
  await status(e, /^Two-factor sign-in is on/);
  return key;
}

/** The signed-in staff member on `e` renames the article `title` to `newTitle` with its edit form. */
async function renameArticle(e: Page, title: string, newTitle: string) {
  await e.goto(`${server.url}/dashboard/articles?q=${encodeURIComponent(title)}`);
  await ready(e);
  await e.getByRole("link", { name: `Edit ${title}`, exact: true }).click();
  await e.waitForURL(/\/dashboard\/articles\/\d+\/edit$/);
  await ready(e);
  await e.locator("#field-title").fill(newTitle);
  await e.getByRole("button", { name: "SAVE CHANGES" }).click();
  await status(e, "Article was updated successfully.");
}

describe("staff accounts, as new users would", () => {
  it("the owner invites an editor from the Staff screen; the e-mail arrives with a working link", async ({ base, staffPage, newPage }) => {
    const p = (await staffPage(VIEWPORT)).page;
    const editor = editorAddress();
    await p.goto(`${base}/dashboard`);
    await ready(p);
    // The owner's navigation and cards show the staff screens.
    for (const name of ["Staff", "Activity", "Outbox", "My account"])
      await p.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name }).waitFor();
    await p.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Staff" }).click();
    await p.waitForURL(`${base}/dashboard/staff`);
    await ready(p);
    await noViolations(p);
    // A mistake first: the message, the field marked, what was typed kept.
    await p.getByLabel("Email").fill("not-an-address");
    await p.getByRole("button", { name: "INVITE", exact: true }).click();
    await status(p, "Please correct the highlighted fields.");
    expect(await p.getByLabel("Email").inputValue()).toBe("not-an-address");
    expect(await p.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
    await noViolations(p);
    await p.getByLabel("Email").fill(editor);
    await p.locator("#field-role").selectOption("editor");
    await p.getByRole("button", { name: "INVITE", exact: true }).click();
    await status(p, `${editor} has been invited as editor. The e-mail has been sent.`);
    await p
      .getByRole("row", { name: new RegExp(editor) })
      .getByText("Invited", { exact: true })
      .waitFor();

    const mail = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(editor));
    expect(mail.subject).toMatch(/invitation/i);
    const link = new RegExp(`${base}/admin/invitation/[A-Za-z0-9_-]+`).exec(mail.text ?? "")?.[0];
    expect(link).toBeTruthy();
    expect(mail.html).toContain(link!);

    // The editor follows it and chooses a password (a common one is refused first, the name kept).
    const e = (await newPage(VIEWPORT)).page;
    await e.goto(link!);
    await e.getByRole("heading", { name: "Accept your invitation" }).waitFor();
    await e.waitForLoadState("networkidle");
    await noViolations(e);
    await e.getByLabel("Your name").fill(EDITOR_NAME);
    await e.getByLabel("Choose a password").fill("1qaz2wsx3edc");
    await e.getByLabel("Type it again").fill("1qaz2wsx3edc");
    await e.getByRole("button", { name: "Set my password" }).click();
    await status(e, "Please correct the highlighted fields.");
    await e.getByText(/one of the 10,000 most common passwords/).waitFor();
    expect(await e.getByLabel("Your name").inputValue()).toBe(EDITOR_NAME);
    await noViolations(e);
    await e.getByLabel("Choose a password").fill(EDITOR_PASSWORD);
    await e.getByLabel("Type it again").fill(EDITOR_PASSWORD);
    await e.getByRole("button", { name: "Set my password" }).click();
    await e.waitForURL(`${base}/admin`);
    await status(e, /^Welcome! Your password is set/);
    // The link works once.
    await e.goto(link!);
    await e
      .getByText(/not valid: it has already been used/)
      .first()
      .waitFor();
    await noViolations(e);
  });

  it("the editor signs in, sets up two-factor sign-in from the QR code's key, and gets 10 recovery codes", async ({
    base,
    staffPage,
    newPage,
  }) => {
    const { page: e } = await newEditor(newPage, (await staffPage(VIEWPORT)).page);
    // An editor sees no staff screens: the content screens, Subscribers (its counts), Statistics, Redirects and My account.
    const nav = e.getByRole("navigation", { name: "Dashboard" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(DASHBOARD_NAV.editor);
    await nav.getByRole("link", { name: "My account" }).click();
    await e.waitForURL(`${base}/dashboard/account`);
    await ready(e);
    await noViolations(e);
    await e.getByRole("link", { name: "Set up two-factor sign-in" }).click();
    await e.waitForURL(`${base}/dashboard/account/two-factor`);
    await ready(e);
    await noViolations(e);
    await e.getByLabel("Current password").fill(EDITOR_PASSWORD);
    await e.getByRole("button", { name: "CONTINUE" }).click();
    await status(e, /^Scan the QR code/);
    const qr = e.getByRole("img", { name: /QR code for your authenticator app/ });
    await qr.waitFor();
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    const secret = ((await e.getByTestId("totp-secret").textContent()) ?? "").replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await noViolations(e);
    // A wrong code keeps the QR code and says why.
    await e.getByLabel("Code from the app").fill("000000");
    await e.getByRole("button", { name: "TURN ON" }).click();
    await status(e, /^That code is not correct/);
    await qr.waitFor();
    await e.getByLabel("Code from the app").fill(await totp(secret));
    await e.getByRole("button", { name: "TURN ON" }).click();
    await status(e, /^Two-factor sign-in is on/);
    const codes = await e.getByTestId("recovery-codes").getByRole("listitem").allTextContents();
    expect(codes).toHaveLength(10);
    await noViolations(e);
  });

  it("the editor signs out, then signs in with password and code", async ({ base, staffPage, newPage }) => {
    const { email, page: e } = await newEditor(newPage, (await staffPage(VIEWPORT)).page);
    const secret = await turnOnTwoFactor(e);
    await e.goto(`${base}/dashboard`);
    await ready(e);
    await e.getByRole("button", { name: "LOGOUT" }).click();
    await e.waitForURL(`${base}/`);
    await signIn(e, email, EDITOR_PASSWORD);
    await e.waitForURL(/\/admin\/two-factor/);
    await e.waitForLoadState("networkidle");
    await noViolations(e);
    await e.getByLabel("Authentication code").fill("123456");
    await e.getByRole("button", { name: "Verify" }).click();
    await status(e, /^That code is not correct/);
    await noViolations(e);
    await e.getByLabel("Authentication code").fill(await totp(secret));
    await e.getByRole("button", { name: "Verify" }).click();
    await e.waitForURL(`${base}/dashboard`);
    await ready(e);
    await e.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My account" }).waitFor();
  });

  it("the editor edits an article", async ({ base, staffPage, newPage }) => {
    const owner = (await staffPage(VIEWPORT)).page;
    const title = await articleForTest(owner, `Editor's article ${stamp}-1`, {}, base);
    const { page: e } = await newEditor(newPage, owner);
    const newTitle = `${title} (edited)`;
    onTestFinished(() => deleteFromList("articles", newTitle, base));
    await renameArticle(e, title, newTitle);
    // Saved: the form shows the new title after a reload, and the list finds it.
    await e.reload();
    await ready(e);
    expect(await e.locator("#field-title").inputValue()).toBe(newTitle);
    await e.goto(`${base}/dashboard/articles?q=${encodeURIComponent(newTitle)}`);
    await ready(e);
    expect(await e.getByRole("link", { name: `Edit ${newTitle}` }).count()).toBe(1);
  });

  it("the editor gets the 403 page on the Staff screen, and 403 with nothing written when posting to staff actions", async ({
    base,
    staffPage,
    newPage,
  }) => {
    const p = (await staffPage(VIEWPORT)).page;
    const { page: e } = await newEditor(newPage, p);
    const res = await e.goto(`${base}/dashboard/staff`);
    expect(res?.status()).toBe(403);
    await e.getByRole("heading", { name: "Not allowed" }).waitFor();
    await e.getByText("You do not have permission to do this. Ask an owner or admin of the site.").waitFor();
    await noViolations(e);
    for (const path of ["/dashboard/activity", "/dashboard/outbox"]) expect((await e.goto(`${base}${path}`))?.status(), path).toBe(403);
    const posts: Record<string, string>[] = [
      { intent: "invite", email: `sneaky${stamp}@example.com`, role: "owner" },
      { intent: "security", require_two_factor: "on" },
    ];
    for (const form of posts) {
      const answer = await e.request.post(`${base}/dashboard/staff`, { form, headers: { origin: base }, maxRedirects: 0 });
      expect(answer.status(), form.intent).toBe(403);
    }
    // Nothing was written: the owner's Staff screen has no such invitation and no requirement switched on.
    await p.goto(`${base}/dashboard/staff`);
    await ready(p);
    expect(await p.getByText(`sneaky${stamp}@example.com`).count()).toBe(0);
    expect(await p.getByLabel("Require two-factor sign-in for every staff account").isChecked()).toBe(false);
  });

  it("the owner sees both changes on the Activity screen with the right names", async ({ base, staffPage, newPage }) => {
    const p = (await staffPage(VIEWPORT)).page;
    const title = await articleForTest(p, `Activity article ${stamp}`, {}, base);
    const name = "Ada Activity";
    const { email, page: e } = await newEditor(newPage, p, name);
    await turnOnTwoFactor(e);
    const articleTitle = `${title} (edited)`;
    onTestFinished(() => deleteFromList("articles", articleTitle, base));
    await renameArticle(e, title, articleTitle);
    await p.goto(`${base}/dashboard/activity`);
    await ready(p);
    await noViolations(p);
    const entries = p.getByTestId("activity-entry");
    const articleEntry = entries.filter({ hasText: articleTitle }).filter({ hasText: "updated" }).first();
    await articleEntry.waitFor();
    expect(await articleEntry.textContent()).toContain(`${name} (${email})`);
    const link = articleEntry.getByRole("link", { name: articleTitle });
    expect(await link.getAttribute("href")).toMatch(/^\/dashboard\/articles\/\d+\/edit$/);
    const twoFactor = entries.filter({ hasText: "two-factor change" }).filter({ hasText: email }).first();
    expect(await twoFactor.textContent()).toContain(`${name} (${email})`);
    const invitation = entries.filter({ hasText: "invitation" }).filter({ hasText: email }).last();
    expect(await invitation.textContent()).toContain(ADMIN_EMAIL);
    // Filter by person: only the editor's entries.
    await p.getByLabel("Person").selectOption({ label: `${name} (${email})` });
    await p.getByLabel("Action").selectOption("update");
    await p.getByRole("button", { name: "Show" }).click();
    await p.waitForURL(/person=/);
    await ready(p);
    const filtered = await p.getByTestId("activity-entry").allTextContents();
    expect(filtered.length).toBeGreaterThan(0);
    for (const text of filtered) expect(text).toContain(email);
    await noViolations(p);
  });

  it("the owner deactivates the editor, whose open session stops working on its next request", async ({ base, staffPage, newPage }) => {
    const p = (await staffPage(VIEWPORT)).page;
    const { email, page: e } = await newEditor(newPage, p);
    await p.goto(`${base}/dashboard/staff`);
    await ready(p);
    await p.getByRole("button", { name: `Deactivate ${email}` }).click();
    await status(p, `${email} has been deactivated and signed out everywhere.`);
    await noViolations(p);
    await e.goto(`${base}/dashboard/articles`);
    expect(e.url()).toContain("/admin?redirectTo=");
    // And the password no longer signs in.
    await signIn(e, email, EDITOR_PASSWORD);
    await status(e, "An error occurred during login. Please contact your site administrator.");
  });
});

describe("forgot password, links, the Outbox and My account", () => {
  it("Forgot password? answers the same sentence for any address; the link opens the reset page; forged links are explained", async ({
    base,
    newPage,
  }) => {
    const page = (await newPage(VIEWPORT)).page;
    await page.goto(`${base}/admin`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(`${base}/admin/forgot-password`);
    await page.waitForLoadState("networkidle");
    await noViolations(page);
    const answers: string[] = [];
    for (const email of [ADMIN_EMAIL, `nobody${stamp}@example.com`]) {
      await page.getByLabel("Email").fill(email);
      // The second answer is the same sentence as the first: wait for this submission's own answer
      // (the status is emptied while it is sent), not the one already on the page.
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/forgot-password")),
        page.getByRole("button", { name: "Send the link" }).click(),
      ]);
      await status(page, /^If an active staff account uses that address/);
      answers.push((await page.getByTestId("status").textContent()) ?? "");
    }
    expect(answers[0]).toBe(answers[1]);
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(ADMIN_EMAIL) && /reset/i.test(m.subject ?? ""));
    const link = new RegExp(`${base}/admin/reset-password/[A-Za-z0-9_-]+`).exec(mail.text ?? "")?.[0];
    await page.goto(link!);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password").waitFor();
    await noViolations(page);
    await page.goto(`${base}/admin/reset-password/forged-forged-forged-forged-forged`);
    await page.getByRole("link", { name: "Ask for a new link" }).waitFor();
    await noViolations(page);
    await page.goto(`${base}/admin/invitation/forged-forged-forged-forged-forged`);
    await page
      .getByText(/This invitation link is not valid/)
      .first()
      .waitFor();
    await noViolations(page);
  });

  it("the owner reads the outbox and a message; My account lists the sessions", async ({ base, staffPage }) => {
    const p = (await staffPage(VIEWPORT)).page;
    await invite(p, editorAddress());
    await p.goto(`${base}/dashboard/outbox`);
    await ready(p);
    await noViolations(p);
    await p
      .getByRole("link", { name: /invitation/i })
      .first()
      .click();
    await p.waitForURL(/\/dashboard\/outbox\/\d+$/);
    await ready(p);
    // Delivered sign-in links are not kept.
    expect(await p.getByTestId("mail-text").textContent()).toMatch(/Delivered\. The body is not kept/);
    await noViolations(p);
    await p.goto(`${base}/dashboard/account`);
    await ready(p);
    await p.getByRole("table", { name: "Your active sessions" }).getByText("(this browser)").waitFor();
    await noViolations(p);
  });

  it("the Staff screen works by keyboard alone: Tab to the invite form, type, Tab to the role and the button, Enter", async ({
    base,
    staffPage,
  }) => {
    const p = (await staffPage(VIEWPORT)).page;
    await p.goto(`${base}/dashboard/staff`);
    await ready(p);
    const focused = () => p.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || "");
    let found = false;
    for (let i = 0; i < 40 && !found; i++) {
      await p.keyboard.press("Tab");
      found = (await focused()) === "field-email";
    }
    expect(found, "the invite e-mail field is reachable with Tab").toBe(true);
    await p.keyboard.type(`keyboard${stamp}@example.com`);
    await p.keyboard.press("Tab");
    expect(await focused()).toBe("field-role");
    await p.keyboard.press("Tab");
    expect(await focused()).toBe("INVITE");
    await p.keyboard.press("Enter");
    await status(p, `keyboard${stamp}@example.com has been invited as editor. The e-mail has been sent.`);
  });
});
