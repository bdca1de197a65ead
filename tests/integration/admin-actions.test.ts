/**
 * The dashboard actions with a signed-in session, called directly: a save
 * writes row and picture together (a failed database write leaves no
 * picture; a replaced or deleted one is removed), bad input is a 400 with
 * nothing written (never a 500), oversize bodies are refused before parsing.
 */
import { callRoute } from "../support/route-call";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as teamDb from "~/.server/db/team";
import { countArticles, getArticleBySlug } from "~/.server/db/articles";
import { getOfficeHours } from "~/.server/db/office-hours";
import { getStorage } from "~/.server/storage/storage";
import { purgeFromTrash } from "~/.server/db/trash";
import * as lawyerNew from "~/routes/admin/lawyer-new";
import * as lawyerEdit from "~/routes/admin/lawyer-edit";
import * as lawyers from "~/routes/admin/lawyers";
import * as articleNew from "~/routes/admin/article-new";
import * as hours from "~/routes/admin/hours";
import * as pageHeadersRoute from "~/routes/admin/page-headers";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { signedIn } from "../support/staff-session";
import { memberFormData } from "../support/team";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
let cookie = "";
let jpeg: Buffer;

beforeAll(async () => {
  cookie = await signedIn("actions@example.com", "owner", "10.9.0.1");
  jpeg = await sharp({ create: { width: 80, height: 100, channels: 3, background: "#456" } })
    .jpeg()
    .toBuffer();
});

function post(path: string, body: FormData | URLSearchParams, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, { method: "POST", body, headers: { cookie, origin: ORIGIN, ...headers } });
}

/** Ada Lovelace's form: a cyber Partner with a mobile and one area detail; `extra` changes any field. */
const memberForm = (extra: Record<string, string> = {}, photo?: Buffer) =>
  memberFormData(
    { full_name: "Ada Lovelace", email: "ada@example.com", extension: "201", mobile: "416 555 0101", ...extra },
    { areaDetails: ["Appeals"], photo },
  );

async function teamFiles() {
  return (await getStorage().list("team")).sort();
}

describe("team member actions", () => {
  it("creates with a picture, replaces it on edit (old one removed), deletes row and picture", async () => {
    const created = await callRoute(lawyerNew.action, post("/dashboard/lawyers/new", memberForm({}, jpeg)));
    expect(created).toMatchObject({ status: 302, location: "/dashboard/lawyers/new" });
    const row = await teamDb.getTeamMemberBySlug("Ada-Lovelace");
    expect(row).toMatchObject({ mobile: "416 555 0101", AOP: ["cyber"], area_details: ["Appeals"], extension: 201 });
    const first = await teamFiles();
    expect(first).toHaveLength(3);
    expect(first.some((k) => k === `team/${row!.img}`)).toBe(true);

    const edited = await callRoute(
      lawyerEdit.action,
      post("/dashboard/lawyer/Ada-Lovelace", memberForm({ mobile: "647 555 0102" }, jpeg)),
      {
        slug: "Ada-Lovelace",
      },
    );
    expect(edited.status).toBe(302);
    const after = await teamDb.getTeamMemberBySlug("Ada-Lovelace");
    expect(after!.mobile).toBe("647 555 0102");
    expect(after!.img).not.toBe(row!.img);
    const second = await teamFiles();
    expect(second).toHaveLength(3);
    expect(second.some((k) => k.includes(row!.img.replace(".jpg", "")))).toBe(false);

    const deleted = await callRoute(
      lawyers.action,
      post("/dashboard/lawyers", new URLSearchParams({ intent: "delete", id: String(after!.id) })),
    );
    expect(deleted).toMatchObject({ status: 302, location: "/dashboard/lawyers" });
    expect(await teamDb.getTeamMemberBySlug("Ada-Lovelace")).toBeUndefined();
    // In the Trash the photo is kept (a restore brings it back); deleting permanently removes it.
    expect(await teamFiles()).toHaveLength(3);
    expect(await purgeFromTrash("team", after!.id, TEST_ACTOR)).toBe("Ada Lovelace");
    expect(await teamFiles()).toEqual([]);
  });

  it("removes the new picture when the database write fails", async () => {
    const spy = vi.spyOn(teamDb, "createTeamMember").mockRejectedValueOnce(new Error("db down"));
    const result = await callRoute(lawyerNew.action, post("/dashboard/lawyers/new", memberForm({ full_name: "Failing Write" }, jpeg)));
    spy.mockRestore();
    expect(result.status).toBe(500);
    expect((result.data as { status: { text: string } }).status.text).toBe("Error adding team member. Please try again later.");
    expect((result.data as { values: { full_name: string } }).values.full_name).toBe("Failing Write");
    expect(await teamFiles()).toEqual([]);
  });

  it("answers bad input with 400, field messages and the typed values; writes nothing", async () => {
    const before = await teamDb.countTeam();
    const bad: Record<string, string>[] = [
      { email: "nope" },
      { extension: "x".repeat(5000) },
      { full_name: "" },
      { desc: "y".repeat(30_000) },
    ];
    for (const extra of bad) {
      const r = await callRoute(lawyerNew.action, post("/dashboard/lawyers/new", memberForm(extra, jpeg)));
      expect(r.status).toBe(400);
      expect((r.data as { errors: Record<string, string> }).errors.photo).toMatch(/Choose the picture again/);
    }
    const notPicture = await callRoute(
      lawyerNew.action,
      post("/dashboard/lawyers/new", memberForm({}, Buffer.from("<svg onload=alert(1)>"))),
    );
    expect(notPicture.status).toBe(400);
    expect((notPicture.data as { status: { text: string } }).status.text).toBe("An error occurred. Please try again later.");
    const malformed = await callRoute(
      lawyerNew.action,
      post("/dashboard/lawyers/new", new URLSearchParams("a=1"), { "content-type": "multipart/form-data; boundary=zzz" }),
    );
    expect(malformed.status).toBe(400);
    const huge = await callRoute(
      lawyerNew.action,
      post("/dashboard/lawyers/new", new URLSearchParams("a=1"), { "content-length": String(50 * 1024 * 1024) }),
    );
    expect(huge.status).toBe(413);
    const badDelete = await callRoute(
      lawyers.action,
      post("/dashboard/lawyers", new URLSearchParams({ intent: "delete", id: "1; drop table team" })),
    );
    expect(badDelete.status).toBe(400);
    const missing = await callRoute(lawyers.action, post("/dashboard/lawyers", new URLSearchParams({ intent: "delete", id: "999999" })));
    expect(missing.status).toBe(404);
    expect(await teamDb.countTeam()).toBe(before);
    expect(await teamFiles()).toEqual([]);
  });

  it("adds and removes support staff without JavaScript (the form comes back, nothing saved)", async () => {
    const fd = memberForm({
      intent: "add-staff",
      new_staff_name: "Sam",
      new_staff_title: "Clerk",
      new_staff_email: "",
      new_staff_extension: "3",
    });
    const refused = await callRoute(lawyerNew.action, post("/dashboard/lawyers/new", fd));
    expect(refused.status).toBe(400);
    expect((refused.data as { staffMessage: string }).staffMessage).toBe("Please fill out all fields for the new support staff member.");
    const ok = await callRoute(
      lawyerNew.action,
      post(
        "/dashboard/lawyers/new",
        memberForm({
          intent: "add-staff",
          new_staff_name: "Sam",
          new_staff_title: "Clerk",
          new_staff_email: "s@example.com",
          new_staff_extension: "3",
        }),
      ),
    );
    expect((ok.data as { values: { staff: unknown[] } }).values.staff).toEqual([
      { name: "Sam", title: "Clerk", email: "s@example.com", extension: "3" },
    ]);
    expect(await teamDb.countTeam()).toBe(0);
  });
});

describe("article actions", () => {
  it("requires a picture on create, sanitises the body and stores the date text", async () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries({
      title: "Breach notice: what now?",
      category: "cyber",
      news: "no",
      priority: "on",
      copy: '<p onclick="x()">Hello <script>alert(1)</script><a href="javascript:alert(1)">x</a></p>',
    }))
      fd.append(k, v);
    const noPicture = await callRoute(articleNew.action, post("/dashboard/articles/new", fd));
    expect(noPicture.status).toBe(400);
    expect((noPicture.data as { status: { text: string } }).status.text).toBe("Please upload an article image.");
    expect(await countArticles()).toBe(0);
    fd.append("photo", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "c.jpg");
    const created = await callRoute(articleNew.action, post("/dashboard/articles/new", fd));
    expect(created).toMatchObject({ status: 302, location: "/dashboard/articles/new" });
    const row = await getArticleBySlug("Breach-notice-what-now");
    expect(row!.copy).toBe("<p>Hello <a>x</a></p>");
    expect(row!.priority).toBe(false);
    expect(row!.date).toMatch(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}$/);
  });
});

describe("hours and headers actions", () => {
  it("refuses blank hours with the spec's message and saves trimmed ones", async () => {
    const blank = await callRoute(hours.action, post("/dashboard/hours/edit", new URLSearchParams({ start_time: " ", end_time: "5:00" })));
    expect(blank.status).toBe(400);
    expect((blank.data as { status: { text: string } }).status.text).toBe("Start and end times cannot be blank");
    const ok = await callRoute(
      hours.action,
      post("/dashboard/hours/edit", new URLSearchParams({ start_time: " 8:00 ", end_time: "4:30" })),
    );
    expect(ok.status).toBe(302);
    expect(await getOfficeHours()).toEqual({ start_time: "8:00", end_time: "4:30" });
  });

  it("saves one header by name and refuses unknown pages", async () => {
    const bad = await callRoute(
      pageHeadersRoute.action,
      post("/dashboard/headers/edit", new URLSearchParams({ name: "admin", header_text: "x" })),
    );
    expect(bad.status).toBe(400);
    const ok = await callRoute(
      pageHeadersRoute.action,
      post("/dashboard/headers/edit", new URLSearchParams({ name: "cyber", header_text: "Cyber text" })),
    );
    expect(ok.status).toBe(302);
  });
});
