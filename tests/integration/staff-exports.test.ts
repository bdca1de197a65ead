/**
 * The Enquiries and Activity CSV exports (issue 43, item 3): what the screen
 * shows, through the one CSV helper — every cell quoted, a sender's formula
 * neutralised for any spreadsheet locale — filtered as the screen is, recorded
 * in Activity, and refused to an editor.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { createEnquiry, updateEnquiry } from "~/.server/db/enquiries";
import { auditLog } from "~/.server/db/schema";
import { parseCsv } from "~/lib/csv";
import * as activityExport from "~/routes/admin/activity-export";
import * as enquiriesExport from "~/routes/admin/enquiries-export";
import { signedIn } from "../support/staff-session";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { guarded, testContext } from "../support/route-call";

setUpTestDatabase();
const ORIGIN = "http://localhost:3000";
let owner = "";
let editor = "";

const get = (path: string, cookie: string) => ({
  request: new Request(`${ORIGIN}${path}`, { headers: { cookie } }),
  params: {},
  context: testContext(),
});

async function status(work: Promise<unknown>): Promise<number> {
  try {
    const value = await work;
    return value instanceof Response ? value.status : 200;
  } catch (thrown) {
    return thrown instanceof Response ? thrown.status : 500;
  }
}

async function csvOf(work: Promise<unknown>): Promise<{ text: string; rows: string[][]; filename: string }> {
  const response = (await work) as Response;
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  const text = await response.text();
  return { text, rows: parseCsv(text), filename: /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")![1] };
}

beforeAll(async () => {
  owner = await signedIn("owner@example.com", "owner");
  editor = await signedIn("editor@example.com", "editor");
  const base = { phone: "", practice_area: "cyber", message: "We were breached; who do we call?" };
  await createEnquiry({ ...base, name: '=HYPERLINK("http://evil.example")', email: "mallory@example.com" });
  const handled = await createEnquiry({ ...base, name: "Dana Claims", email: "dana@insurer.example", message: "a;=1+1" });
  await updateEnquiry(handled.id, { state: "closed", staff_note: "Called back." }, TEST_ACTOR);
});

describe("the Enquiries export", () => {
  it("holds every enquiry with every field, each cell quoted and formulas neutralised", async () => {
    const { text, rows, filename } = await csvOf(guarded(enquiriesExport.loader, get("/dashboard/enquiries/export", owner)));
    expect(filename).toMatch(/^enquiries-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows[0]).toEqual([
      "id",
      "received_utc",
      "name",
      "email",
      "phone",
      "practice_area",
      "message",
      "consented_utc",
      "state",
      "staff_note",
      "handled_by",
      "handled_utc",
    ]);
    expect(rows.slice(1).map((r) => r[3])).toEqual(["dana@insurer.example", "mallory@example.com"]);
    // Every cell quoted; a cell that starts a formula (or holds one after a ; or ,) is neutralised.
    for (const line of text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n"))
      expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/);
    expect(text).not.toContain(`"=HYPERLINK`);
    expect(text).not.toContain(`"a;=1+1"`);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.item_label, "Enquiries (2)"));
    expect(entry).toMatchObject({ action: "export", item_type: "enquiry", actor_label: "owner@example.com" });
  });

  it("follows the screen's state filter, and is refused to an editor", async () => {
    const { rows } = await csvOf(guarded(enquiriesExport.loader, get("/dashboard/enquiries/export?state=closed", owner)));
    expect(rows.slice(1).map((r) => [r[2], r[8], r[9]])).toEqual([["Dana Claims", "closed", "Called back."]]);
    expect(await status(guarded(enquiriesExport.loader, get("/dashboard/enquiries/export", editor)))).toBe(403);
  });
});

describe("the Activity export", () => {
  it("holds the entries the screen's filters select, newest first, and is refused to an editor", async () => {
    const { rows, filename } = await csvOf(
      guarded(activityExport.loader, get("/dashboard/activity/export?item=enquiry&action=update", owner)),
    );
    expect(filename).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows[0]).toEqual(["at_utc", "person", "ip_address", "action", "item_type", "item_id", "item", "changes"]);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((r) => r[3] === "update" && r[4] === "enquiry")).toBe(true);
    expect(rows[1][7]).toContain("closed");
    const all = await csvOf(guarded(activityExport.loader, get("/dashboard/activity/export", owner)));
    expect(all.rows.length).toBeGreaterThan(rows.length);
    const times = all.rows.slice(1).map((r) => r[0]);
    expect([...times].sort().reverse()).toEqual(times);
    expect(await status(guarded(activityExport.loader, get("/dashboard/activity/export", editor)))).toBe(403);
  });
});
