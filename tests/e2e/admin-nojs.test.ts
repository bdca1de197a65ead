/**
 * The dashboard without JavaScript (progressive enhancement): sign-in, a
 * team member with support staff added through the server, chips as
 * checkboxes, delete through the server's confirmation panel, an article
 * from the plain textarea. Also: public pages never load the editor.
 * (axe needs JavaScript in the page: the same screens are checked in admin-dashboard.test.ts.)
 * Each test stands alone: its own signed-in page (`staffPage`) and the member or article it works on.
 */
import type { Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "./fixture";
import { ADMIN_EMAIL, ADMIN_PASSWORD, deleteFromList, sendForm, testJpeg } from "./support";

const stamp = Date.now();

/** The signed-in pages of this file: JavaScript off (`staffPage`). */
const SIGNED_IN = { javaScriptEnabled: false };

const status = (page: Page, text: string) => page.getByTestId("status").getByText(text, { exact: true }).waitFor({ timeout: 15_000 });

describe("dashboard without JavaScript", () => {
  it("signs in", async ({ base, newPage }) => {
    const { page } = await newPage({ javaScriptEnabled: false });
    onTestFinished(() => page.context().close());
    await page.goto(`${base}/admin`);
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${base}/dashboard`);
    expect(await page.getByRole("button", { name: "LOGOUT" }).count()).toBe(1);
  });

  it("adds a member with support staff and chips, keeping what was typed", async ({ base, staffPage }) => {
    const { page } = await staffPage(SIGNED_IN);
    const MEMBER = `Nojs Member${stamp}`;
    onTestFinished(() => deleteFromList("lawyers", MEMBER, base));
    await page.goto(`${base}/dashboard/lawyers/new`);
    await page.locator("#field-full_name").fill(MEMBER);
    await page.locator("#field-title").fill("Associate");
    await page.locator("#field-email").fill(`nojs${stamp}@example.com`);
    await page.locator("#field-extension").fill("300");
    await page.locator("#field-desc").fill("Bio without scripts.");
    await page.getByRole("checkbox", { name: "Construction", exact: true }).check();
    await page.getByRole("checkbox", { name: "Dog bites" }).check();
    await page.getByText("ADD NEW STAFF MEMBER").click(); // <details>
    await page.getByLabel("Staff name").fill("Pat Assistant");
    await page.getByRole("button", { name: "SAVE NEW STAFF MEMBER" }).click();
    await status(page, "Please fill out all fields for the new support staff member.");
    expect(await page.locator("#field-full_name").inputValue()).toBe(MEMBER);
    await page.getByLabel("Staff title").fill("Assistant");
    await page.getByLabel("Staff email").fill("pat@example.com");
    await page.getByLabel("Staff extension").fill("301");
    await page.getByRole("button", { name: "SAVE NEW STAFF MEMBER" }).click();
    await page.getByRole("button", { name: "Remove Pat Assistant" }).waitFor();
    expect(await page.getByRole("checkbox", { name: "Construction", exact: true }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "ADD TEAM MEMBER" }).click();
    await status(page, `${MEMBER} has been added successfully`);
    await page.goto(`${base}/dashboard/lawyers?q=${encodeURIComponent(MEMBER)}`);
    expect(await page.getByRole("link", { name: `Edit ${MEMBER}` }).count()).toBe(1);
  });

  it("deletes through the confirmation panel", async ({ base, staffPage }) => {
    const { page } = await staffPage(SIGNED_IN);
    const MEMBER = `Nojs Delete${stamp}`;
    await sendForm(
      page,
      "/dashboard/lawyers/new",
      { full_name: MEMBER, title: "Associate", email: `nojs.delete${stamp}@example.com`, extension: "300", desc: "Bio without scripts." },
      base,
    );
    onTestFinished(() => deleteFromList("lawyers", MEMBER, base));
    await page.goto(`${base}/dashboard/lawyers?q=${encodeURIComponent(MEMBER)}`);
    await page.getByRole("button", { name: `Delete ${MEMBER}` }).click();
    await page.getByRole("heading", { name: "Are you sure you want to delete this?" }).waitFor();
    await page
      .getByRole("region", { name: "Are you sure you want to delete this?" })
      .getByRole("button", { name: `Delete ${MEMBER}` })
      .click();
    await status(page, `${MEMBER} has been deleted successfully`);
    expect(await page.getByRole("link", { name: `Edit ${MEMBER}` }).count()).toBe(0);
  });

  it("adds an article from the plain textarea and deletes it", async ({ base, staffPage }) => {
    const { page } = await staffPage(SIGNED_IN);
    const ARTICLE = `Nojs article ${stamp}`;
    onTestFinished(() => deleteFromList("articles", ARTICLE, base));
    await page.goto(`${base}/dashboard/articles/new`);
    await page.locator("#field-title").fill(ARTICLE);
    await page.locator("#field-category").selectOption("events");
    await page.getByLabel("No", { exact: true }).check();
    await page.getByLabel(/Article body/).fill("First paragraph.\n\nSecond <b>paragraph</b>.");
    const jpeg = await testJpeg(64, 48);
    await page.locator("#field-photo").setInputFiles({ name: "a.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status(page, "Article has been added successfully.");
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(ARTICLE)}`);
    await page.getByRole("button", { name: `Delete ${ARTICLE}` }).click();
    await page
      .getByRole("region", { name: "Are you sure you want to delete this?" })
      .getByRole("button", { name: `Delete ${ARTICLE}` })
      .click();
    await status(page, "Article has been deleted successfully.");
    expect(await page.getByRole("link", { name: `Edit ${ARTICLE}` }).count()).toBe(0);
  });

  it("invites someone, reads the link in the Outbox (no SMTP), and the invitee sets a password, all without JavaScript", async ({
    base,
    newPage,
    staffPage,
  }) => {
    const { page } = await staffPage(SIGNED_IN);
    const invitee = `nojs-invitee${stamp}@example.com`;
    await page.goto(`${base}/dashboard/staff`);
    await page.getByLabel("Email").fill("not-an-address");
    await page.getByRole("button", { name: "INVITE", exact: true }).click();
    await status(page, "Please correct the highlighted fields.");
    expect(await page.getByLabel("Email").inputValue()).toBe("not-an-address");
    await page.getByLabel("Email").fill(invitee);
    await page.locator("#field-role").selectOption("editor");
    await page.getByRole("button", { name: "INVITE", exact: true }).click();
    await page
      .getByTestId("status")
      .getByText(new RegExp(`^${invitee} has been invited as editor\\. No e-mail server is set up`))
      .waitFor();
    await page.goto(`${base}/dashboard/outbox`);
    await page
      .getByRole("row", { name: new RegExp(invitee) })
      .getByRole("link")
      .click();
    const text = (await page.getByTestId("mail-text").textContent()) ?? "";
    const link = /http:\/\/[^\s]+\/admin\/invitation\/[A-Za-z0-9_-]+/.exec(text)?.[0];
    expect(link).toBeTruthy();
    const { context: other, page: p2 } = await newPage({ javaScriptEnabled: false });
    onTestFinished(() => other.close());
    await p2.goto(link!);
    await p2.getByLabel("Your name").fill("No Script");
    await p2.getByLabel("Choose a password").fill("short");
    await p2.getByLabel("Type it again").fill("short");
    await p2.getByRole("button", { name: "Set my password" }).click();
    await p2
      .getByText("The password must be at least 12 characters.")
      .waitFor({ timeout: 5000 })
      .catch(async (e) => {
        throw new Error(`page: ${p2.url()} ${(await p2.locator("body").textContent())?.slice(0, 1500)}`, { cause: e });
      });
    expect(await p2.getByLabel("Your name").inputValue()).toBe("No Script");
    await p2.getByLabel("Choose a password").fill("a no-script passphrase");
    await p2.getByLabel("Type it again").fill("a no-script passphrase");
    await p2.getByRole("button", { name: "Set my password" }).click();
    await p2.waitForURL(`${base}/admin`);
    await p2.getByLabel("Email").fill(invitee);
    await p2.getByLabel("Password").fill("a no-script passphrase");
    await p2.getByRole("button", { name: "Login" }).click();
    await p2.waitForURL(`${base}/dashboard`);
    // The Activity screen filters with a plain GET form.
    await page.goto(`${base}/dashboard/activity`);
    await page.getByLabel("Action").selectOption("invitation");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/action=invitation/);
    expect(await page.getByTestId("activity-entry").filter({ hasText: invitee }).count()).toBeGreaterThanOrEqual(2);
  });
});

describe("public pages", () => {
  it("never load the article editor", async ({ base, newPage }) => {
    const { context: ctx, page: p } = await newPage();
    onTestFinished(() => ctx.close());
    const scripts: string[] = [];
    p.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
    for (const path of ["/", "/insights", "/team"]) {
      await p.goto(`${base}${path}`);
      await p.waitForLoadState("networkidle");
    }
    expect(scripts.filter((s) => /rich-text-editor|tiptap|prosemirror/i.test(s))).toEqual([]);
  });
});
