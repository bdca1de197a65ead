/**
 * Every sign-in page and dashboard screen through the three accessibility
 * checkers — axe-core (WCAG 2.1 A/AA), HTML_CodeSniffer (WCAG2AA) and IBM
 * Equal Access (WCAG 2.1) — with zero findings: as it opens, with each form's
 * field messages after sending it empty or wrong, with the delete confirmation
 * open (dialog, and the panel shown without JavaScript), at desktop and phone
 * sizes. The Nu HTML Checker on the server HTML of every screen and on the
 * documents as the browser shows them in those states: zero errors. Every
 * screen works by keyboard: each control is reached by Tab in turn, with a
 * visible focus ring, and nothing traps the focus; the dialog, a form's
 * messages and the article editor are used by keyboard alone.
 *
 * The screens come from app/routes.ts: a page route under the dashboard frame
 * or beside the sign-in page that this file does not open fails the last test
 * (parameterised ones are listed in PARAMETERISED with how they are reached).
 *
 * Each test stands alone: a page of its own, signed out or signed in with a
 * session of its own (the fixture's `newPage` or `staffPage`), and the data it
 * checks made in it; its HTML goes through the Nu HTML Checker at its end. On
 * a server of its own (`ownServer`):
 * the last test turns on two-factor sign-in for the staff account and signs
 * in through it (the shared server's tests sign in without it), so it stays
 * the last signed-in test. Only the final check of the list of screens
 * depends on the others: it is the summary of the routes they opened.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach } from "vitest";
import routes from "../../app/routes";
import { runA11yCheckers, validateHtml, type Finding } from "./a11y-checkers";
import { authenticator } from "../support/totp";
import { describe, expect, it, ownServer, type OpenPage } from "./fixture";
import { ADMIN_EMAIL, ADMIN_PASSWORD, publicForm, sendVisits, statisticsShown } from "./support";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const stamp = Date.now();
const INVITEE = `invitee${stamp}@example.com`;

/** The parameterised pages and how this file reaches each. */
const PARAMETERISED: Record<string, string> = {
  "admin/reset-password/:token": "a forged token, then the link of the reset e-mail the Outbox test asks for",
  "admin/invitation/:token": "a forged token, then the link of the invitation e-mail the Outbox test sends",
  "dashboard/lawyer/:slug": "the first row's Edit link in Manage Team",
  "dashboard/articles/:id/edit": "the first row's Edit link in Manage Articles",
  "dashboard/enquiries/:id": "the enquiry sent through /contact by this file",
  "dashboard/outbox/:id": "the first message in the Outbox",
  "dashboard/history/:kind/:id": "the History link of the first article's edit screen",
  "dashboard/subscribers/:id": "the address subscribed through /subscribe by this file",
  "dashboard/articles/:id/mailing": "Send to subscribers of the first article in Manage Articles",
  "dashboard/events/:id/edit": "the first row's Edit link in Manage Events",
  "dashboard/events/:id/registrations": "the Registrations link of the demo's past event's edit screen",
};

/** The file's own server (the fixture's base): the last signed-in test turns on two-factor sign-in for the staff account. */
const server = ownServer();
/** The server's origin, once it has started. */
let base: string;
/** This test's context and page (`signedOut()` / `signedIn()`), used by the helpers below. */
let context: BrowserContext;
let page: Page;
/** Route patterns (as in routes.ts) opened and checked. */
const covered = new Set<string>();
/** This test's documents for the Nu HTML Checker: the server's HTML of each screen, and the DOM of each checked state. */
const documents: { name: string; html: string }[] = [];
let stylesheet = "";
/** The enquiry form as /contact served it (fields and timing token), sent once the token allows it. */
let enquiryForm: Awaited<ReturnType<typeof publicForm>>;

beforeAll(async () => {
  base = server.url;
  // The enquiry shown in the Enquiries screens: its form is taken now, sent when a person could have (its token says when).
  enquiryForm = await publicForm("/contact", base);
  enquiryForm.fields.set("name", `Accessibility Sender ${stamp}`);
  enquiryForm.fields.set("email", `sender${stamp}@example.com`);
  enquiryForm.fields.set("phone", "416 555 0101");
  enquiryForm.fields.set("practice_area", "cyber");
  enquiryForm.fields.set("message", "A question about a data breach notice we received last week.");
  enquiryForm.fields.set("consent", "yes");
  // Visits for the Statistics screen (rolled up by the server's job within a minute).
  await sendVisits(base);
});
// Registered after the server's hooks, so it runs before the server is stopped (after-hooks run in reverse).
afterAll(() => {
  if (base && server.process.exitCode !== null) console.error(`the server stopped:\n${server.output().slice(-4000)}`);
});

beforeEach(() => {
  documents.length = 0;
});

/** The fixture's `newPage` or `staffPage`: a page of a browser context of its own, closed when the test ends. */
type OpenPageWith = (options: { viewport: typeof DESKTOP }) => Promise<OpenPage>;

/** This test's page, signed out (the fixture's `newPage`). */
async function signedOut(newPage: OpenPageWith) {
  ({ context, page } = await newPage({ viewport: DESKTOP }));
}

/** This test's page, signed in as the test staff account with a session of its own (the fixture's `staffPage`). */
async function signedIn(staffPage: OpenPageWith) {
  ({ context, page } = await staffPage({ viewport: DESKTOP }));
}

/** Nothing found by the three checkers, and no error of the Nu HTML Checker in this test's documents (as served and as shown). */
async function expectNothingFound(found: Record<string, Finding[]>) {
  expect(found).toEqual({});
  expect(await validateHtml(documents)).toEqual([]);
}

/** The page is ready: the dashboard's React has taken over (or, on the sign-in pages, the network is quiet). */
async function ready() {
  if (new URL(page.url()).pathname.startsWith("/dashboard")) await page.locator('main[data-hydrated="true"]').waitFor();
  await page.waitForLoadState("networkidle");
}

async function status(text: string | RegExp) {
  const region = page.getByTestId("status");
  await (typeof text === "string" ? region.getByText(text, { exact: true }) : region.getByText(text)).waitFor({ timeout: 15_000 });
}

/**
 * The three checkers on the page as it is (and, for a screen as it opens, at
 * phone size too); the DOM kept for the HTML checker.
 */
async function check(label: string, found: Record<string, Finding[]>, options: { phone?: boolean } = {}) {
  const desktop = await runA11yCheckers(page);
  if (desktop.length) found[label] = desktop;
  if (options.phone) {
    await page.setViewportSize(PHONE);
    const phone = await runA11yCheckers(page);
    if (phone.length) found[`${label} (phone)`] = phone;
    await page.setViewportSize(DESKTOP);
  }
  documents.push({ name: `${label} (as shown)`, html: await page.content() });
}

/** Opens a screen (route pattern as in routes.ts), checks it, and keeps its server HTML. */
async function open(pattern: string, path: string, found: Record<string, Finding[]>) {
  covered.add(pattern);
  const res = await page.goto(base + path);
  expect(res?.status(), path).toBe(200);
  await ready();
  const html = await (await context.request.get(base + path)).text();
  stylesheet ||= /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1] ?? "";
  documents.push({ name: path, html });
  await check(path, found, { phone: true });
  await keyboardReachesEverything(path);
}

/**
 * By keyboard alone: Tab from the top of the page reaches every visible
 * control in turn, each showing a focus ring, and leaves the page at the end
 * (no trap).
 */
async function keyboardReachesEverything(label: string) {
  const { controls, dateInputs } = await page.evaluate(() => {
    const all = [
      ...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex], [contenteditable="true"]'),
    ];
    const visible = all.filter((el) => {
      if ((el as HTMLButtonElement).disabled || el.tabIndex < 0 || (el as HTMLInputElement).type === "hidden") return false;
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
    });
    // Radio buttons of one group are one stop: the chosen one, or the first.
    const isRadio = (el: HTMLElement): el is HTMLInputElement => el instanceof HTMLInputElement && el.type === "radio";
    const stops = visible.filter((el) => {
      if (!isRadio(el)) return true;
      const group = visible.filter((other) => isRadio(other) && other.name === el.name) as HTMLInputElement[];
      return el === (group.find((r) => r.checked) ?? group[0]);
    });
    stops.forEach((el, i) => (el.dataset.kbIndex = String(i)));
    // A date field is three stops (day, month, year); a date and time field up to six (and the hour's AM/PM).
    const type = (el: HTMLElement) => (el as HTMLInputElement).type;
    return {
      controls: stops.length,
      dateInputs: stops.filter((el) => type(el) === "date").length + 2.5 * stops.filter((el) => type(el) === "datetime-local").length,
    };
  });
  // Tab from the top of the document.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute("tabindex");
    window.scrollTo(0, 0);
  });
  const reached: string[] = [];
  const noRing: string[] = [];
  for (let i = 0; i < controls + 2 * dateInputs + 5; i++) {
    await page.keyboard.press("Tab");
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      // A ring on the control, or on the box around it (the article editor's); a date field shows the part being typed.
      let ring = el instanceof HTMLInputElement && (el.type === "date" || el.type === "datetime-local");
      for (let box: Element | null = el, depth = 0; box && depth < 4 && !ring; box = box.parentElement, depth++) {
        const style = getComputedStyle(box);
        ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || (box === el && style.boxShadow !== "none");
      }
      return {
        index: el.dataset.kbIndex ?? null,
        ring,
        name: `${el.tagName.toLowerCase()} ${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}`,
      };
    });
    if (!info) break; // left the page
    if (info.index !== null && !reached.includes(info.index)) reached.push(info.index);
    if (!info.ring) noRing.push(info.name);
  }
  const missing = await page.evaluate(
    (reached) =>
      [...document.querySelectorAll<HTMLElement>("[data-kb-index]")]
        .filter((el) => !reached.includes(el.dataset.kbIndex!))
        .map((el) => el.outerHTML.slice(0, 120)),
    reached,
  );
  expect({ label, missing, noRing: [...new Set(noRing)] }).toEqual({ label, missing: [], noRing: [] });
  await page.evaluate(() => document.querySelectorAll("[data-kb-index]").forEach((el) => el.removeAttribute("data-kb-index")));
}

/** Sends the form holding the button by keyboard (Enter on the button), as it is. */
async function submitByKeyboard(button: string) {
  await page.getByRole("button", { name: button, exact: true }).focus();
  await page.keyboard.press("Enter");
}

/** The focus is on the first field marked invalid, whose message is read with it. */
async function focusOnFirstInvalid() {
  // Polled on a timer, not on rendered frames: the answer is in the DOM whether or not a busy machine paints it.
  await page
    .waitForFunction(() => document.activeElement?.getAttribute("aria-invalid") === "true", undefined, { polling: 100 })
    .catch(async (error: Error) => {
      const state = await page.evaluate(() => ({
        url: location.pathname,
        focus: document.activeElement?.outerHTML.slice(0, 160) ?? null,
        invalid: [...document.querySelectorAll('[aria-invalid="true"]')].map((el) => el.id || el.tagName),
        status: document.querySelector('[data-testid="status"]')?.textContent ?? null,
      }));
      throw new Error(`no field marked invalid has the focus: ${JSON.stringify(state)} (${error.message.split("\n")[0]})`);
    });
  const described = await page.evaluate(() => {
    const ids = document.activeElement?.getAttribute("aria-describedby")?.split(" ") ?? [];
    return ids.map((id) => document.getElementById(id)?.textContent ?? `missing #${id}`).join(" ");
  });
  expect(described).not.toBe("");
}

describe("the sign-in pages, signed out", () => {
  it("find nothing on the login page, empty and with its messages, and on a two-factor step with no sign-in pending", async ({
    newPage,
  }) => {
    await signedOut(newPage);
    const found: Record<string, Finding[]> = {};
    await open("admin", "/admin", found);
    await submitByKeyboard("Login");
    await status(/.+/);
    await check("/admin sent empty", found);
    // No sign-in pending: back to the login page, which says why.
    covered.add("admin/two-factor");
    await page.goto(`${base}/admin/two-factor`);
    await page.waitForURL(`${base}/admin`);
    await status(/.+/);
    await check("/admin/two-factor with nothing pending", found);
    await expectNothingFound(found);
  });

  it("find nothing on Forgot password, empty, with its message and sent; nor on forged e-mailed links", async ({ newPage }) => {
    await signedOut(newPage);
    const found: Record<string, Finding[]> = {};
    await open("admin/forgot-password", "/admin/forgot-password", found);
    await submitByKeyboard("Send the link");
    await status(/.+/);
    await check("/admin/forgot-password sent empty", found);
    // An address of no account: the same answer, and no reset e-mail (the Outbox test asks for its own).
    await page.getByLabel("Email").fill(`nobody${stamp}@example.com`);
    await submitByKeyboard("Send the link");
    await page.waitForURL(/\/admin/);
    await status(/.+/);
    await check("/admin/forgot-password sent", found);
    await open("admin/reset-password/:token", "/admin/reset-password/x", found);
    await open("admin/invitation/:token", "/admin/invitation/x", found);
    await expectNothingFound(found);
  });
});

// A screen's test opens up to nine states, each through the three checkers, and goes through three screens by
// keyboard: ~25 s alone, and more than the suite's 90 s on a slow machine beside another file.
describe("the dashboard, signed in", { timeout: 240_000 }, () => {
  it("finds nothing on the dashboard home; its skip link leads into main", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    await open("dashboard", "/dashboard", found);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
    await expectNothingFound(found);
  });

  for (const [list, pattern, editPattern, newPattern, add, title] of [
    ["/dashboard/lawyers", "dashboard/lawyers", "dashboard/lawyer/:slug", "dashboard/lawyers/new", "ADD TEAM MEMBER", "field-full_name"],
    ["/dashboard/articles", "dashboard/articles", "dashboard/articles/:id/edit", "dashboard/articles/new", "ADD ARTICLE", "field-title"],
  ] as const) {
    it(`finds nothing on ${list}: the list, the delete confirmation (dialog and panel), new and edit forms with their messages`, async ({
      staffPage,
    }) => {
      await signedIn(staffPage);
      const found: Record<string, Finding[]> = {};
      await open(pattern, list, found);
      // The delete confirmation, opened and closed by keyboard; the focus goes back to its button.
      const del = page.getByRole("button", { name: /^Delete / }).first();
      const name = ((await del.getAttribute("aria-label")) ?? "").replace(/^Delete /, "");
      await del.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("alertdialog");
      await dialog.waitFor();
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="alertdialog"]'))).toBe(true);
      await check(`${list} delete dialog`, found);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Delete ${name}`);
      // The same confirmation without JavaScript: a panel above the list.
      const form = del.locator("xpath=ancestor::form");
      const id = await form.locator('input[name="confirm"]').getAttribute("value");
      await page.goto(`${base}${list}?confirm=${id}`);
      await ready();
      await page.getByRole("heading", { name: "Are you sure you want to delete this?" }).waitFor();
      await check(`${list}?confirm= panel`, found);

      // Edit: the first row, its required name emptied and sent.
      await page.goto(base + list);
      await ready();
      const edit = await page
        .getByRole("link", { name: /^Edit / })
        .first()
        .getAttribute("href");
      await open(editPattern, edit!, found);
      await page.locator(`#${title}`).fill("");
      await submitByKeyboard("SAVE CHANGES");
      await focusOnFirstInvalid();
      await check(`${edit} sent with an empty name`, found);
      if (list === "/dashboard/lawyers") {
        // Issue 33: the Law Society's rules ("specialist" refused, "expert" to confirm) and a bar admission without its year.
        await page.locator("#field-full_name").fill("Checked Lawyer");
        await page.locator("#field-title").fill("Insurance Specialist");
        await page.locator("#field-desc").fill("An expert in coverage.");
        await page.getByRole("group", { name: "Bar admission 1" }).getByLabel("Jurisdiction").fill("Ontario");
        await page.getByRole("group", { name: "Bar admission 1" }).getByLabel("Year").fill("");
        await submitByKeyboard("SAVE CHANGES");
        await focusOnFirstInvalid();
        await page
          .getByText(/Rule 4\.3-1/)
          .first()
          .waitFor();
        await page.getByRole("checkbox", { name: /demonstrably true/ }).waitFor();
        await check(`${edit} with "specialist", "expert" and an admission without its year`, found);
      }

      // New: sent empty, every field's message.
      await open(newPattern, `${list}/new`, found);
      await submitByKeyboard(add);
      await focusOnFirstInvalid();
      await status(/.+/);
      await check(`${list}/new sent empty`, found);
      await expectNothingFound(found);
    });
  }

  it("finds nothing on an item's History and on the Trash (with an item in it, and its second confirmation)", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    await page.goto(base + "/dashboard/articles");
    await ready();
    const edit = await page
      .getByRole("link", { name: /^Edit / })
      .first()
      .getAttribute("href");
    await page.goto(base + edit!);
    await ready();
    const history = await page.getByRole("link", { name: "History" }).getAttribute("href");
    await open("dashboard/history/:kind/:id", history!, found);
    // The last article of Manage Articles deleted through its dialog: it goes to the Trash.
    await page.goto(base + "/dashboard/articles");
    await ready();
    await page
      .getByRole("button", { name: /^Delete / })
      .last()
      .click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    // Until the server has answered (the dialog goes as the form is sent; a page opened before the answer would
    // cancel the request, and the Trash would be empty).
    await status("Article has been deleted successfully.");
    await open("dashboard/trash", "/dashboard/trash", found);
    await page
      .getByRole("button", { name: /^Delete permanently ./ })
      .first()
      .click();
    await page.getByRole("button", { name: "Delete permanently", exact: true }).waitFor();
    await check("/dashboard/trash second confirmation", found);
    await expectNothingFound(found);
  });

  it("the article editor is used by keyboard: Tab reaches it, typing writes, its toolbar buttons are reached and pressed", async ({
    staffPage,
  }) => {
    await signedIn(staffPage);
    await page.goto(`${base}/dashboard/articles/new`);
    await ready();
    const editor = page.locator('[contenteditable="true"]');
    await editor.waitFor();
    await page.locator("#field-title").focus();
    for (let i = 0; i < 40 && !(await editor.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))); i++) {
      await page.keyboard.press("Tab");
    }
    await page.keyboard.type("Typed by keyboard");
    expect(await editor.textContent()).toContain("Typed by keyboard");
    await page.keyboard.press("Shift+Tab");
    const pressed = await page.evaluate(() => document.activeElement?.tagName);
    expect(pressed).toBe("BUTTON");
  });

  it("finds nothing on office hours and page headers, as they open and with their messages", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    await open("dashboard/hours/edit", "/dashboard/hours/edit", found);
    await page.getByLabel(/^Start time/).fill("");
    await page.getByLabel(/^End time/).fill("");
    await submitByKeyboard("SAVE HOURS");
    await focusOnFirstInvalid();
    await check("/dashboard/hours/edit sent empty", found);
    await open("dashboard/headers/edit", "/dashboard/headers/edit", found);
    const first = page.locator("textarea").first();
    await first.fill("");
    await first.press("Tab");
    await page.keyboard.press("Enter");
    await status(/.+/);
    await check("/dashboard/headers/edit one sent empty", found);
    await expectNothingFound(found);
  });

  it("finds nothing on Staff (as it opens, the invitation sent empty) and Activity", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    await open("dashboard/staff", "/dashboard/staff", found);
    await submitByKeyboard("INVITE");
    await focusOnFirstInvalid();
    await check("/dashboard/staff invitation sent empty", found);
    // A real invitation, for the Outbox and the invitation page.
    await page.getByLabel(/^Email/).fill(INVITEE);
    await submitByKeyboard("INVITE");
    await status(/.+/);
    await page.getByText(INVITEE).first().waitFor();
    await check("/dashboard/staff with an invitation", found);
    await open("dashboard/activity", "/dashboard/activity", found);
    await expectNothingFound(found);
  });

  it("finds nothing on the Outbox and its messages (the reset and invitation e-mails), and on Failed jobs", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    // This test's own e-mails: a reset link asked for on Forgot password, and an invitation sent from Staff.
    const reset = await fetch(`${base}/admin/forgot-password`, {
      method: "POST",
      body: new URLSearchParams({ email: ADMIN_EMAIL }),
      headers: { origin: base },
    });
    expect(reset.status).toBeLessThan(400);
    const invitation = await page.request.post(`${base}/dashboard/staff`, {
      form: { intent: "invite", email: `outbox${stamp}@example.com`, role: "editor" },
      headers: { origin: base },
      maxRedirects: 0,
    });
    expect(invitation.status()).toBeLessThan(400);
    let resetLink = "";
    let invitationLink = "";
    await open("dashboard/outbox", "/dashboard/outbox", found);
    const links = await page.locator('a[href^="/dashboard/outbox/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const href of links) {
      await open("dashboard/outbox/:id", href, found);
      const text = (await page.locator("main").textContent()) ?? "";
      resetLink ||= /\/admin\/reset-password\/[A-Za-z0-9_-]+/.exec(text)?.[0] ?? "";
      invitationLink ||= /\/admin\/invitation\/[A-Za-z0-9_-]+/.exec(text)?.[0] ?? "";
    }
    expect(resetLink).not.toBe("");
    expect(invitationLink).not.toBe("");
    // The job queue's dead-letter list beside the Outbox (owners; with a failed job: tests/e2e/failed-jobs.test.ts).
    await open("dashboard/failed-jobs", "/dashboard/failed-jobs", found);
    // The e-mailed links themselves (their pages are the same signed in or not): as they open and sent empty.
    await open("admin/reset-password/:token", resetLink, found);
    await submitByKeyboard("Set the new password");
    await focusOnFirstInvalid();
    await check("reset link sent empty", found);
    await open("admin/invitation/:token", invitationLink, found);
    await submitByKeyboard("Set my password");
    await focusOnFirstInvalid();
    await check("invitation link sent empty", found);
    await expectNothingFound(found);
  });

  it("finds nothing on Enquiries and an enquiry (its delete dialog open too)", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    // The enquiry, sent as soon as its token allows (a person takes a few seconds to fill the form in).
    const res = await enquiryForm.send();
    const answer = await res.text();
    expect(res.status, answer.slice(0, 300)).toBe(200);
    expect(answer).toContain("Your enquiry has been sent");
    await open("dashboard/enquiries", "/dashboard/enquiries", found);
    const href = await page
      .getByRole("link", { name: new RegExp(`Accessibility Sender ${stamp}`) })
      .first()
      .getAttribute("href");
    await open("dashboard/enquiries/:id", href!, found);
    await page.getByRole("button", { name: /^Delete / }).click();
    await page.getByRole("alertdialog").waitFor();
    await check(`${href} delete dialog`, found);
    await page.keyboard.press("Escape");
    await expectNothingFound(found);
  });

  it("finds nothing on Redirects (with a form's messages and the delete confirmation), the 404 log and Move from WordPress", async ({
    staffPage,
  }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    await fetch(`${base}/an-old-page-${stamp}/`, { headers: { referer: "https://partner.example/" } });
    await open("dashboard/redirects", "/dashboard/redirects", found);
    await page.getByLabel("Old address").fill("no slash");
    await page.getByRole("button", { name: "Add redirect" }).click();
    await page.getByText("The old address must start with /").first().waitFor();
    await check("/dashboard/redirects with field messages", found, { phone: true });
    await page.getByLabel("Old address").fill(`/a11y-old-${stamp}`);
    await page.getByLabel("New address").fill("/team");
    await page.getByRole("button", { name: "Add redirect" }).click();
    await page.getByLabel(`/a11y-old-${stamp}`).check();
    await page.getByRole("button", { name: "Delete selected" }).click();
    await page.getByText(/Are you sure you want to delete this\?/).waitFor();
    await check("/dashboard/redirects delete confirmation", found, { phone: true });
    await open("dashboard/redirects/not-found", "/dashboard/redirects/not-found", found);
    await open("dashboard/import/wordpress", "/dashboard/import/wordpress", found);
    await expectNothingFound(found);
  });

  it("finds nothing on Manage Events, Add an event (sent empty too) and an event's edit screen with its cancel confirmation", async ({
    staffPage,
  }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    await open("dashboard/events", "/dashboard/events", found);
    await open("dashboard/events/new", "/dashboard/events/new", found);
    await page.getByRole("button", { name: "ADD EVENT" }).click();
    await page.locator("#field-title-error").waitFor();
    await check("/dashboard/events/new sent empty", found, { phone: true });
    await page.goto(`${base}/dashboard/events`);
    const edit = (await page.locator('main a[href$="/edit"]').first().getAttribute("href")) ?? "";
    await open("dashboard/events/:id/edit", edit, found);
    await page.getByRole("button", { name: "Cancel the event…" }).click();
    await page.getByRole("alertdialog").waitFor();
    await check(`${edit} cancel confirmation`, found, { phone: true });
    await expectNothingFound(found);
  });

  it("finds nothing on Subscribers, a subscriber's consent history and Send to subscribers", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    // A sign-up through /subscribe (pending: enough for the list and the history), sent once its token allows.
    const signup = await publicForm("/subscribe", base);
    signup.fields.set("email", `reader${stamp}@example.com`);
    signup.fields.append("topics", "news");
    signup.fields.set("consent", "yes");
    const res = await signup.send();
    expect(res.status).toBe(200);
    await open("dashboard/subscribers", "/dashboard/subscribers", found);
    const href = await page.getByRole("link", { name: `reader${stamp}@example.com` }).getAttribute("href");
    await open("dashboard/subscribers/:id", href!, found);
    await page.goto(`${base}/dashboard/articles`);
    await ready();
    const edit = await page.locator('main a[href$="/edit"]').first().getAttribute("href");
    await open("dashboard/articles/:id/mailing", edit!.replace(/\/edit$/, "/mailing"), found);
    await expectNothingFound(found);
  });

  it("finds nothing on an event's registrations (searched, and with the import's message)", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    await page.goto(`${base}/dashboard/events?q=Ethics`);
    await page.locator('main a[href$="/edit"]').first().click();
    await page.getByRole("link", { name: "Registrations" }).click();
    await page.waitForURL(/\/registrations$/);
    const path = new URL(page.url()).pathname;
    await open("dashboard/events/:id/registrations", path, found);
    await page.getByLabel("Search by name, e-mail or organisation").fill("granite");
    await submitByKeyboard("Search");
    await page.waitForURL(/\?q=granite/);
    await ready();
    await check(`${path} searched`, found, { phone: true });
    await page.getByRole("button", { name: "Import attendance" }).click();
    await status("Choose the attendance CSV file to import.");
    await check(`${path} with the import's message`, found);
    await expectNothingFound(found);
  });

  it("finds nothing on Statistics (with figures and its chart, a wrong custom range, this browser not counted)", async ({ staffPage }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    // The beacons sent at the start are in the figures once the server's rollup (every minute) has run.
    await statisticsShown(page, base);
    await open("dashboard/statistics", "/dashboard/statistics?range=7d", found);
    await page.locator('[data-testid="stats-chart"] canvas').first().waitFor();
    await check("/dashboard/statistics with figures", found, { phone: true });
    // A custom range that ends before it starts: the message, and the focus on the first date.
    await page.getByRole("radio", { name: "Custom" }).check();
    await page.getByLabel("From (custom)").fill("2026-05-10");
    await page.getByLabel("To (custom)").fill("2026-05-01");
    await submitByKeyboard("Show");
    await focusOnFirstInvalid();
    await check("/dashboard/statistics wrong custom range", found);
    await submitByKeyboard("Don't count this browser");
    await status("This browser is no longer counted in the statistics.");
    await check("/dashboard/statistics this browser not counted", found);
    await submitByKeyboard("Count this browser again");
    await status("This browser is counted in the statistics again.");
    await expectNothingFound(found);
  });
});

describe("two-factor sign-in, set up and used (the last signed-in test: the staff account then needs a code to sign in)", () => {
  it("finds nothing on My account (sent empty too), on each step of setting up two-factor sign-in, and on the two-factor step of signing in (empty and sent empty)", async ({
    staffPage,
  }) => {
    await signedIn(staffPage);
    const found: Record<string, Finding[]> = {};
    await open("dashboard/account", "/dashboard/account", found);
    await submitByKeyboard("CHANGE PASSWORD");
    await focusOnFirstInvalid();
    await check("/dashboard/account password sent empty", found);

    await open("dashboard/account/two-factor", "/dashboard/account/two-factor", found);
    await submitByKeyboard("CONTINUE");
    await focusOnFirstInvalid();
    await check("/dashboard/account/two-factor sent empty", found);
    await page.getByLabel(/^Current password/).fill(ADMIN_PASSWORD);
    await submitByKeyboard("CONTINUE");
    await status(/^Scan the QR code/);
    await check("/dashboard/account/two-factor QR code", found);
    const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s+/g, "");
    await page.getByLabel(/^Code from the app/).fill("000000");
    await submitByKeyboard("TURN ON");
    await status(/^That code is not correct/);
    await focusOnFirstInvalid();
    await check("/dashboard/account/two-factor wrong code", found);
    const otp = authenticator(secret);
    await page.getByLabel(/^Code from the app/).fill(await otp.totp());
    await submitByKeyboard("TURN ON");
    await status(/^Two-factor sign-in is on/);
    const recoveryCode = ((await page.getByTestId("recovery-codes").getByRole("listitem").first().textContent()) ?? "").trim();
    await check("/dashboard/account/two-factor recovery codes", found);

    // Signed out, then in again through the two-factor step just set up (with a recovery code).
    await page.goto(`${base}/dashboard`);
    await ready();
    await page.getByRole("button", { name: "LOGOUT" }).click();
    await page.waitForURL(`${base}/`);

    await page.goto(`${base}/admin`);
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByLabel("Password").press("Enter");
    await page.waitForURL(/\/admin\/two-factor/);
    await ready();
    await check("/admin/two-factor", found, { phone: true });
    await keyboardReachesEverything("/admin/two-factor");
    documents.push({ name: "/admin/two-factor", html: await (await context.request.get(page.url())).text() });
    await submitByKeyboard("Verify");
    await focusOnFirstInvalid();
    await check("/admin/two-factor sent empty", found);
    await page.getByLabel(/^Authentication code/).fill(recoveryCode);
    await submitByKeyboard("Verify");
    await page.waitForURL(`${base}/dashboard`);
    await expectNothingFound(found);
  });
});

describe("the list of screens (the summary of the tests above)", () => {
  it("every page route of the sign-in pages and the dashboard (app/routes.ts) was opened and checked", () => {
    expect(stylesheet).not.toBe("");
    type Entry = { path?: string; file: string; index?: boolean; children?: Entry[] };
    const pages: string[] = [];
    const walk = (entries: Entry[], underAdmin: boolean) => {
      for (const entry of entries) {
        const admin = underAdmin || entry.file === "routes/admin/layout.tsx";
        if (entry.children) walk(entry.children, admin);
        else if (entry.file.endsWith(".tsx") && (admin || /^admin(\/|$)/.test(entry.path ?? "")))
          pages.push(entry.index ? "dashboard" : entry.path!);
      }
    };
    walk(routes, false);
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.filter((p) => p.includes(":")).sort()).toEqual(Object.keys(PARAMETERISED).sort());
    expect([...covered].sort()).toEqual([...pages].sort());
  });
});
