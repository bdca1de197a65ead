/**
 * A lawyer's credentials (issue 33) through the dashboard's real actions:
 * saved from the form (representative matters sanitised, one a line without
 * the editor), refused with the Law Society's rule for "specialist" (nothing
 * written, everything typed sent back), "expert" saved once confirmed, and
 * kept in the audit trail's diff and in History (diffed, restored).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "~/.server/db/activity";
import { createTeamMember, getTeamMemberById, type TeamMember } from "~/.server/db/team";
import { listRevisions } from "~/.server/db/revisions";
import type { TeamFormValues } from "~/lib/forms/team";
import * as lawyerEdit from "~/routes/admin/lawyer-edit";
import * as history from "~/routes/admin/history";
import * as lawyerPage from "~/routes/public/lawyer";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { callRoute } from "../support/route-call";
import { signedIn } from "../support/staff-session";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
let cookie = "";
let member: TeamMember;

beforeAll(async () => {
  cookie = await signedIn("credentials@example.com", "owner", "10.9.0.7");
  member = await createTeamMember(
    {
      full_name: "Grace Hopper",
      title: "Partner",
      email: "grace@example.com",
      extension: 301,
      mobile: "",
      desc: "Defends insurers.",
      img: "",
      AOP: ["insurance"],
      area_details: [],
      staff: [],
    },
    TEST_ACTOR,
  );
});

function form(fields: Record<string, string | string[]>) {
  const fd = new FormData();
  const all: Record<string, string | string[]> = {
    full_name: "Grace Hopper",
    title: "Partner",
    email: "grace@example.com",
    extension: "301",
    desc: "Defends insurers.",
    AOP: "insurance",
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) for (const x of [v].flat()) fd.append(k, x);
  return fd;
}

async function save(fields: Record<string, string | string[]>) {
  const current = (await getTeamMemberById(member.id))!;
  const fd = form({ version: String(current.version), ...fields });
  return callRoute(
    lawyerEdit.action,
    new Request(`${ORIGIN}/dashboard/lawyer/${current.slug}`, { method: "POST", body: fd, headers: { cookie, origin: ORIGIN } }),
    { slug: current.slug },
  );
}

/** What the form posts for the credentials once they are saved (each save posts the whole form). */
const CREDENTIALS = {
  admission_jurisdiction: ["Ontario", "British Columbia", ""],
  admission_year: ["2004", "2010", ""],
  languages: ["en", "fr"],
  other_languages: "Tagalog",
  education_degree: ["J.D."],
  education_school: ["Osgoode Hall Law School"],
  education_year: ["2003"],
  memberships: "Ontario Bar Association\nCanadian Defence Lawyers",
};
const MATTERS = '<ul><li><strong>Won</strong> <a href="https://example.com">appeal</a></li></ul>';

type Failure = { status: { text: string }; errors: Record<string, string>; values: TeamFormValues };

describe("a lawyer's credentials in the dashboard", () => {
  it("are saved from the form; matters are sanitised, and lines typed without the editor become a list", async () => {
    const result = await save({
      ...CREDENTIALS,
      matters: "Defended an insurer in a $2M claim <script>alert(1)</script>\nWon a coverage appeal",
    });
    expect(result.status).toBe(302);
    const saved = (await getTeamMemberById(member.id))!;
    expect(saved.admissions).toEqual([
      { jurisdiction: "Ontario", year: 2004 },
      { jurisdiction: "British Columbia", year: 2010 },
    ]);
    expect(saved.languages).toEqual(["en", "fr"]);
    expect(saved.other_languages).toBe("Tagalog");
    expect(saved.education).toEqual([{ degree: "J.D.", school: "Osgoode Hall Law School", year: 2003 }]);
    expect(saved.memberships).toEqual(["Ontario Bar Association", "Canadian Defence Lawyers"]);
    expect(saved.matters).toBe(
      "<ul><li>Defended an insurer in a $2M claim &lt;script&gt;alert(1)&lt;/script&gt;</li><li>Won a coverage appeal</li></ul>",
    );

    // The editor's HTML keeps lists, emphasis and links; anything else goes.
    await save({
      ...CREDENTIALS,
      matters: '<ul><li><strong>Won</strong> <a href="https://example.com">appeal</a><img src=x onerror=alert(1)></li></ul><h2>x</h2>',
    });
    expect((await getTeamMemberById(member.id))!.matters).toBe(
      '<ul><li><strong>Won</strong> <a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">appeal</a></li></ul>x',
    );
  });

  it("are in the audit trail's diff of the save", async () => {
    const { entries } = await listActivity({ person: "", item: "team", action: "update", from: null, to: null }, 1);
    // The first save of the credentials (the list is newest first).
    const update = entries.filter((e) => e.itemId === String(member.id) && e.changes && "admissions" in e.changes).at(-1)!;
    expect(update.changes).toMatchObject({
      admissions: {
        before: [],
        after: [
          { jurisdiction: "Ontario", year: 2004 },
          { jurisdiction: "British Columbia", year: 2010 },
        ],
      },
      languages: { before: [], after: ["en", "fr"] },
      memberships: { after: ["Ontario Bar Association", "Canadian Defence Lawyers"] },
    });
  });

  it("refuses “specialist” without a recorded certification, writes nothing and sends back everything typed", async () => {
    const before = (await getTeamMemberById(member.id))!;
    const result = await save({
      ...CREDENTIALS,
      matters: MATTERS,
      title: "Insurance Specialist",
      desc: "Grace specializes in coverage.",
      admission_jurisdiction: ["Ontario", "Quebec"],
      admission_year: ["2004", "2015"],
      languages: ["en", "fr", "es"],
    });
    expect(result.status).toBe(400);
    const data = result.data as Failure;
    expect(data.errors.title).toMatch(/Law Society of Ontario.*Certified Specialist.*Rule 4\.3-1/);
    expect(data.errors.desc).toMatch(/Certified Specialist/);
    expect(data.values).toMatchObject({
      title: "Insurance Specialist",
      languages: ["en", "fr", "es"],
      admissions: [
        { jurisdiction: "Ontario", year: "2004" },
        { jurisdiction: "Quebec", year: "2015" },
      ],
    });
    const after = (await getTeamMemberById(member.id))!;
    expect(after.version).toBe(before.version);
    expect(after.title).toBe("Partner");

    // With the certification recorded, the same words are saved.
    const certified = await save({
      ...CREDENTIALS,
      matters: MATTERS,
      title: "Partner, Certified Specialist",
      specialist_area: "Civil Litigation",
      specialist_year: "2016",
    });
    expect(certified.status).toBe(302);
    expect((await getTeamMemberById(member.id))!).toMatchObject({ specialist_area: "Civil Litigation", specialist_year: 2016 });
  });

  it("asks to confirm “expert” and saves once confirmed", async () => {
    const certification = { specialist_area: "Civil Litigation", specialist_year: "2016", matters: MATTERS, ...CREDENTIALS };
    const warned = await save({ ...certification, desc: "An expert in coverage disputes." });
    expect(warned.status).toBe(400);
    const data = warned.data as Failure;
    expect(Object.keys(data.errors)).toEqual(["confirm_expert"]);
    expect(data.status.text).toMatch(/demonstrably true.*Rule 4\.2-1/);
    expect(data.values.desc).toBe("An expert in coverage disputes.");
    const confirmed = await save({ ...certification, desc: "An expert in coverage disputes.", confirm_expert: "on" });
    expect(confirmed.status).toBe(302);
    expect((await getTeamMemberById(member.id))!.desc).toBe("An expert in coverage disputes.");
  });

  it("are part of History: diffed as text, and restored with the version", async () => {
    const list = await listRevisions("team", member.id);
    // The save that added the credentials (the first after the creation).
    const added = list[list.length - 2];
    const page = await callRoute(
      history.loader,
      new Request(`${ORIGIN}/dashboard/history/team/${member.id}?rev=${added.id}`, { headers: { cookie } }),
      {
        kind: "team",
        id: String(member.id),
      },
    );
    const changes = (page.data as { changes: { field: string; label: string; parts: { value: string; added?: boolean }[] }[] }).changes;
    const text = (field: string) =>
      changes
        .find((c) => c.field === field)
        ?.parts.filter((p) => p.added)
        .map((p) => p.value)
        .join("");
    expect(changes.map((c) => c.label)).toEqual(
      expect.arrayContaining(["Bar admissions", "Languages", "Education", "Representative matters", "Professional memberships"]),
    );
    expect(text("admissions")).toContain("Ontario (2004); British Columbia (2010)");
    expect(text("languages")).toContain("English, French, Tagalog");

    // Restore the version before any credentials: they go; restore the latest again: they come back.
    const first = list[list.length - 1];
    const restored = await callRoute(
      history.action,
      new Request(`${ORIGIN}/dashboard/history/team/${member.id}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "restore", revision: String(first.id) }),
        headers: { cookie, origin: ORIGIN },
      }),
      { kind: "team", id: String(member.id) },
    );
    expect(restored.status).toBe(302);
    expect((await getTeamMemberById(member.id))!).toMatchObject({ admissions: [], languages: [], specialist_area: "", matters: "" });
    const back = await callRoute(
      history.action,
      new Request(`${ORIGIN}/dashboard/history/team/${member.id}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "restore", revision: String(list[0].id) }),
        headers: { cookie, origin: ORIGIN },
      }),
      { kind: "team", id: String(member.id) },
    );
    expect(back).toMatchObject({ status: 302 });
    expect((await getTeamMemberById(member.id))!).toMatchObject({
      languages: ["en", "fr"],
      specialist_area: "Civil Litigation",
      specialist_year: 2016,
      education: [{ degree: "J.D.", school: "Osgoode Hall Law School", year: 2003 }],
    });
  });

  it("reach the public profile's data: languages by name, the certification line, sanitised matters", async () => {
    const saved = (await getTeamMemberById(member.id))!;
    const page = await callRoute(lawyerPage.loader, new Request(`${ORIGIN}/lawyer/${saved.slug}`), { slug: saved.slug });
    const m = (page.data as { member: Record<string, unknown> }).member;
    expect(m.languages).toEqual(["English", "French", "Tagalog"]);
    expect(m.specialist).toBe("Certified by the Law Society of Ontario as a Specialist in Civil Litigation (since 2016)");
    expect(m.matters).toContain("<strong>Won</strong>");
  });
});
