/**
 * Passkeys end to end in Chromium with its virtual authenticator (DevTools
 * protocol WebAuthn.addVirtualAuthenticator): a signed-in owner adds a
 * passkey on My account, signs out, signs in with "Sign in with a passkey"
 * (no password typed), sees the sign-in on the Activity screen, and removes
 * the passkey, after which it no longer signs in.
 *
 * Each test stands alone: its own signed-in page (`staffPage`) with its own
 * virtual authenticator, the passkey it needs added in the test, and every
 * passkey of the account removed when the test ends.
 */
import type { Browser, CDPSession, Page } from "playwright-core";
import { describe, expect, it, onTestFinished, ownServer, type OpenPage } from "./fixture";
import { ADMIN_EMAIL, axe, dashboardReady, newPage, signInContext } from "./support";

/** The file's own server (its base): the staff account's passkeys are its own. */
const server = ownServer();

async function status(page: Page, text: string | RegExp) {
  const region = page.getByTestId("status");
  await (typeof text === "string" ? region.getByText(text, { exact: true }) : region.getByText(text)).waitFor({ timeout: 20_000 });
}

/** Removes every passkey of the staff account from My account, with a session of its own. */
async function removeAllPasskeys(browser: Browser) {
  const { context, page } = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  try {
    await signInContext(context, server.url);
    await page.goto(`${server.url}/dashboard/account`);
    await dashboardReady(page);
    const remove = page.getByRole("button", { name: /^Remove the passkey / });
    while ((await remove.count()) > 0) {
      await remove.first().click();
      await status(page, "The passkey has been removed.");
      await dashboardReady(page);
    }
  } finally {
    await context.close();
  }
}

/** A signed-in page of this test's own with a virtual authenticator; the account's passkeys are removed when the test ends. */
async function signedInWithAuthenticator(
  staffPage: (options: { viewport: { width: number; height: number } }) => Promise<OpenPage>,
  browser: Browser,
): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const { context, page } = await staffPage({ viewport: { width: 1280, height: 900 } });
  onTestFinished(() => removeAllPasskeys(browser));
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page, cdp, authenticatorId };
}

async function addPasskey(page: Page) {
  await page.goto(`${server.url}/dashboard/account`);
  await dashboardReady(page);
  await page.getByText("You have no passkey yet.").waitFor();
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await status(page, "The passkey has been added. You can now sign in with it.");
  await page.getByRole("list", { name: "Your passkeys" }).getByText("Passkey 1").waitFor();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "LOGOUT" }).click();
  await page.waitForURL(`${server.url}/`);
}

describe("passkeys", () => {
  it("adds a passkey on My account", async ({ staffPage, browser }) => {
    const { page, cdp, authenticatorId } = await signedInWithAuthenticator(staffPage, browser);
    await addPasskey(page);
    const { credentials } = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: unknown[] };
    expect(credentials).toHaveLength(1);
    expect(await page.getByRole("list", { name: "Your passkeys" }).getByRole("listitem").count()).toBe(1);
    expect(await axe(page)).toEqual([]);
  });

  it("signs in with the passkey, without a password", async ({ staffPage, browser, base }) => {
    const { page } = await signedInWithAuthenticator(staffPage, browser);
    await addPasskey(page);
    await signOut(page);
    await page.goto(`${base}/admin?redirectTo=%2Fdashboard%2Faccount`);
    const button = page.getByRole("button", { name: "Sign in with a passkey" });
    await button.waitFor();
    expect(await axe(page)).toEqual([]);
    await button.click();
    await page.waitForURL(`${base}/dashboard/account`);
    await dashboardReady(page);
    expect(await page.getByRole("table", { name: "Your active sessions" }).getByText("(this browser)").count()).toBe(1);
    await page.goto(`${base}/dashboard/activity?action=sign-in`);
    await dashboardReady(page);
    const latest = page.getByTestId("activity-entry").first();
    expect(await latest.textContent()).toContain(ADMIN_EMAIL);
    expect(await latest.textContent()).toContain("method: “passkey”");
  });

  it("a removed passkey no longer signs in", async ({ staffPage, browser, base }) => {
    const { page } = await signedInWithAuthenticator(staffPage, browser);
    await addPasskey(page);
    await page.getByRole("button", { name: "Remove the passkey Passkey 1" }).click();
    await status(page, "The passkey has been removed.");
    await page.getByText("You have no passkey yet.").waitFor();
    await signOut(page);
    await page.goto(`${base}/admin`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await status(page, "Sign-in with a passkey did not work. Try again, or sign in with your e-mail and password.");
    expect(page.url()).toBe(`${base}/admin`);
  });
});
