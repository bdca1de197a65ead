/**
 * Passkeys end to end in Chromium with its virtual authenticator (DevTools
 * protocol WebAuthn.addVirtualAuthenticator): a signed-in owner adds a
 * passkey on My account, signs out, signs in with "Sign in with a passkey"
 * (no password typed), sees the sign-in on the Activity screen, and removes
 * the passkey, after which it no longer signs in.
 */
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, axe, launchBrowser, newPage, startServer, type RunningServer } from "./support";

let server: RunningServer;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let authenticatorId = "";

beforeAll(async () => {
  server = await startServer();
  base = server.url;
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser, { viewport: { width: 1280, height: 900 } }));
  cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  ({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function ready() {
  await page.locator('main[data-hydrated="true"]').waitFor();
  await page.waitForLoadState("networkidle");
}

async function status(text: string | RegExp) {
  const region = page.getByTestId("status");
  await (typeof text === "string" ? region.getByText(text, { exact: true }) : region.getByText(text)).waitFor({ timeout: 20_000 });
}

describe("passkeys", () => {
  it("adds a passkey on My account", async () => {
    await page.goto(`${base}/admin`);
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${base}/dashboard`);
    await page.goto(`${base}/dashboard/account`);
    await ready();
    await page.getByText("You have no passkey yet.").waitFor();
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await status("The passkey has been added. You can now sign in with it.");
    await page.getByRole("list", { name: "Your passkeys" }).getByText("Passkey 1").waitFor();
    const { credentials } = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: unknown[] };
    expect(credentials).toHaveLength(1);
    expect(await axe(page)).toEqual([]);
  });

  it("signs in with the passkey, without a password", async () => {
    await page.getByRole("button", { name: "LOGOUT" }).click();
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/admin?redirectTo=%2Fdashboard%2Faccount`);
    const button = page.getByRole("button", { name: "Sign in with a passkey" });
    await button.waitFor();
    expect(await axe(page)).toEqual([]);
    await button.click();
    await page.waitForURL(`${base}/dashboard/account`);
    await ready();
    await page.getByRole("table", { name: "Your active sessions" }).getByText("(this browser)").waitFor();
    await page.goto(`${base}/dashboard/activity?action=sign-in`);
    await ready();
    const latest = page.getByTestId("activity-entry").first();
    expect(await latest.textContent()).toContain(ADMIN_EMAIL);
    expect(await latest.textContent()).toContain("method: “passkey”");
  });

  it("a removed passkey no longer signs in", async () => {
    await page.goto(`${base}/dashboard/account`);
    await ready();
    await page.getByRole("button", { name: "Remove the passkey Passkey 1" }).click();
    await status("The passkey has been removed.");
    await page.getByText("You have no passkey yet.").waitFor();
    await page.getByRole("button", { name: "LOGOUT" }).click();
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/admin`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await status("Sign-in with a passkey did not work. Try again, or sign in with your e-mail and password.");
    expect(page.url()).toBe(`${base}/admin`);
  });
});
