/**
 * The lawyer's PDF bio (/lawyer/:slug/bio.pdf, issue 33) read back by
 * Poppler (Debian poppler-utils: pdftotext, pdfinfo, pdffonts; .ci/run
 * installs it): one Letter page, tagged, fonts embedded, and the text a
 * reader selects — name, title, contact details, practice areas (each once),
 * the profile, representative matters, admissions, education, languages,
 * memberships, the three latest insights and the firm's letterhead — read
 * by `pdftotext` without -layout in that order (one column). As many matters
 * and memberships as fit; the page used to its foot. Kept in storage and
 * made again when the profile changes; only visible lawyers.
 */
import { testContext } from "../support/route-call";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bioKey, bioMatters } from "~/.server/content/bio-pdf";
import { listArticlePage } from "~/.server/db/articles";
import { seedDemoContent } from "~/.server/db/seed";
import { createTeamMember, getTeamMemberBySlug, updateTeamMember, type TeamMember } from "~/.server/db/team";
import { getStorage } from "~/.server/storage/storage";
import { loader } from "~/routes/public/bio-pdf";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { memberInput } from "../support/team";

setUpTestDatabase();

const hasPoppler = spawnSync("pdfinfo", ["-v"]).status === 0;
if (!hasPoppler && process.env.CI) throw new Error("CI needs Poppler for the PDF bio test: apt-get install -y poppler-utils");

beforeAll(async () => {
  await seedDemoContent();
});

async function get(slug: string, headers: Record<string, string> = {}) {
  return loader({
    params: { slug },
    request: new Request(`http://localhost:3000/lawyer/${slug}/bio.pdf`, { headers }),
    context: testContext(),
  } as never);
}

function poppler(bytes: Uint8Array) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bio-"));
  const file = path.join(dir, "bio.pdf");
  fs.writeFileSync(file, bytes);
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
    return r.stdout;
  };
  try {
    return {
      info: run("pdfinfo", [file]),
      text: run("pdftotext", ["-layout", file, "-"]),
      /** pdftotext without -layout: the reading order a viewer's copy, search and reflow follow. */
      flow: run("pdftotext", [file, "-"]),
      plain: run("pdftotext", [file, "-"]).replace(/\s+/g, " "),
      /** Each word with its box (points from the page's top), for where the text ends. */
      words: [
        ...run("pdftotext", ["-bbox", file, "-"]).matchAll(
          /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
        ),
      ].map((m) => ({ x: Number(m[1]), y: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]), text: m[5] })),
      fonts: run("pdffonts", [file]),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const pages = (info: string) => Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);

describe.skipIf(!hasPoppler)("PDF bio", () => {
  it("is one tagged Letter page with the fonts embedded and the profile's text", async () => {
    const response = await get("Eleanor-Whitcombe");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe('inline; filename="Eleanor-Whitcombe-bio.pdf"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    const { info, plain, fonts } = poppler(bytes);
    expect(pages(info)).toBe(1);
    expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
    expect(info).toMatch(/Tagged:\s+yes/);
    expect(info).toMatch(/Title:\s+Eleanor Whitcombe, Managing Partner \| Harrow Kline LLP/);
    // Every font embedded (a subset of Inter and Source Serif 4): the "emb" column says yes for each.
    const rows = fonts.split("\n").slice(2).filter(Boolean);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) expect(row).toMatch(/\byes\s+yes\s+yes\b/);
    expect(fonts).toMatch(/Inter-Regular/);
    expect(fonts).toMatch(/SourceSerif4-SemiBold/);

    const member = (await getTeamMemberBySlug("Eleanor-Whitcombe"))!;
    for (const expected of [
      "Harrow Kline LLP",
      "100 Wellington Street West",
      "Eleanor Whitcombe",
      "Managing Partner",
      "Certified by the Law Society of Ontario as a Specialist in Civil Litigation (since 2012)",
      `416-555-0142 ext. ${member.extension}`,
      "Mobile 416-555-0190",
      "ewhitcombe@harrowkline.example",
      "BAR ADMISSIONS",
      "Ontario, 2003",
      "LANGUAGES",
      "English",
      "French",
      "EDUCATION",
      "J.D., Osgoode Hall Law School, 2002",
      "PRACTICE AREAS",
      "Insurance Defence",
      "Coverage issues",
      "PROFILE",
      "Eleanor leads the firm",
      "REPRESENTATIVE MATTERS",
      "Defended a national property and casualty insurer",
      "Obtained a declaration of no coverage",
      "Resolved a subrogated claim of $1.8 million",
      "PROFESSIONAL MEMBERSHIPS",
      "Defence Counsel Association of Ontario",
      "Canadian Defence Lawyers",
      "Ontario Bar Association",
      "RECENT INSIGHTS",
      "Full profile: http://localhost:3000/lawyer/Eleanor-Whitcombe",
    ])
      expect(plain).toContain(expected);
    // The three latest insights naming her, newest first.
    const latest = await listArticlePage({ filter: "all", page: 1, pageSize: 3, authorId: member.id });
    expect(latest.items.length).toBeGreaterThan(0);
    let at = plain.indexOf("RECENT INSIGHTS");
    for (const a of latest.items) {
      const found = plain.indexOf(a.title, at);
      expect(found, a.title).toBeGreaterThan(at);
      at = found;
    }
  });

  it("reads in order without -layout: the name first, then the header, then each section whole, the letterhead last", async () => {
    const { flow } = poppler(new Uint8Array(await (await get("Eleanor-Whitcombe")).arrayBuffer()));
    const lines = flow
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    expect(lines[0]).toBe("Eleanor Whitcombe");
    expect(lines[1]).toBe("Managing Partner");
    // Each heading once, in this order, and each section's own text between its heading and the next one.
    const order = [
      ["Eleanor Whitcombe", "Managing Partner", "Civil Litigation", "ext. 101", "ewhitcombe@harrowkline.example"],
      ["PRACTICE AREAS", "Insurance Defence", "Appeals"],
      ["PROFILE", "Eleanor leads the firm"],
      ["REPRESENTATIVE MATTERS", "catastrophic-impairment claim", "upheld by the Court of Appeal for Ontario", "three weeks before trial"],
      ["BAR ADMISSIONS", "Ontario, 2003"],
      ["EDUCATION", "J.D., Osgoode Hall Law School, 2002", "B.A. (Hons.), Queen's University, 1999"],
      ["LANGUAGES", "English", "French"],
      ["PROFESSIONAL MEMBERSHIPS", "Defence Counsel Association of Ontario", "Ontario Bar Association"],
      ["RECENT INSIGHTS"],
      ["Harrow Kline LLP", "100 Wellington Street West", "Full profile: http://localhost:3000/lawyer/Eleanor-Whitcombe"],
    ];
    const text = flow.replace(/\s+/g, " ");
    let at = -1;
    for (const group of order) {
      for (const part of group) {
        const found = text.indexOf(part, at + 1);
        expect(found, `"${part}" after position ${at}`).toBeGreaterThan(at);
        at = found;
      }
    }
    for (const heading of ["PRACTICE AREAS", "PROFILE", "REPRESENTATIVE MATTERS", "PROFESSIONAL MEMBERSHIPS", "RECENT INSIGHTS"])
      expect(text.split(heading)).toHaveLength(2);
  });

  it("prints each practice area once, however it is capitalised; as many matters and memberships as fit, to the foot of the page", async () => {
    const member = await createTeamMember(
      memberInput("Many Matters Example", {
        email: "matters@example.com",
        extension: 998,
        desc: Array.from({ length: 40 }, (_, i) => `Sentence ${i} of a long biography about the files she has defended.`).join(" "),
        AOP: ["insurance", "cyber"],
        area_details: ["Insurance defence", "insurance  DEFENCE", "Cyber Incident Response", "Appeals", "appeals"],
        matters: Array.from(
          { length: 30 },
          (_, i) => `Matter number ${i}: defended an insurer in a claim that went on for many years.`,
        ).join("\n"),
        memberships: Array.from({ length: 30 }, (_, i) => `Membership number ${i}`),
      }),
      TEST_ACTOR,
    );
    const { info, plain, words } = poppler(new Uint8Array(await (await get(member.slug)).arrayBuffer()));
    expect(pages(info)).toBe(1);
    expect(info).toMatch(/Tagged:\s+yes/);
    const count = (needle: RegExp) => (plain.match(needle) ?? []).length;
    expect(count(/insurance\s+defence/gi)).toBe(1);
    expect(count(/cyber incident response/gi)).toBe(1);
    expect(count(/\bappeals\b/gi)).toBe(1);
    // The profile is there; matters and memberships too, from the first, as many as the page holds (not all thirty).
    expect(plain).toContain("Sentence 0 of a long biography");
    expect(plain).toContain("Matter number 0:");
    expect(plain).toContain("Matter number 1:");
    expect(plain).not.toContain("Matter number 29:");
    expect(plain).toContain("Membership number 0");
    expect(plain).not.toContain("Membership number 29");
    // The page is used to its foot: the body's last words sit just above the letterhead (792 pt high; footer at ~722).
    const letterhead = words.find((w) => w.text === "Harrow")!;
    const body = words.filter((w) => w.y < letterhead.y - 4);
    expect(Math.max(...body.map((w) => w.bottom))).toBeGreaterThan(letterhead.y - 60);
    // Nothing printed over anything else: no two words' boxes overlap (a section pushed into the next would).
    const overlaps = body.flatMap((a, i) =>
      body
        .slice(i + 1)
        .filter((b) => a.x < b.right - 0.5 && b.x < a.right - 0.5 && a.y < b.bottom - 1 && b.y < a.bottom - 1)
        .map((b) => `${a.text}/${b.text}`),
    );
    expect(overlaps).toEqual([]);
    expect(body.length).toBeGreaterThan(200);
  });

  it("is kept in storage under a key of its content: the second request is the same file, a change makes a new one", async () => {
    const first = new Uint8Array(await (await get("Sofia-Marchetti")).arrayBuffer());
    const second = new Uint8Array(await (await get("Sofia-Marchetti")).arrayBuffer());
    // pdfkit writes the time it made the file into it: identical bytes mean the stored copy.
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const sofiaId = (await getTeamMemberBySlug("Sofia-Marchetti"))!.id;
    const keys = (await getStorage().list("bios")).filter((k) => k.startsWith(`bios/${sofiaId}-`));
    expect(keys).toHaveLength(1);

    const before = (await getTeamMemberBySlug("Sofia-Marchetti"))!;
    await updateTeamMember(before.id, { ...before, title: "Senior Partner", languages: ["en", "it", "fr", "es"] }, TEST_ACTOR);
    const after = (await getTeamMemberBySlug("Sofia-Marchetti"))!;
    const changed = await get("Sofia-Marchetti");
    const { plain } = poppler(new Uint8Array(await changed.arrayBuffer()));
    expect(plain).toContain("Senior Partner");
    expect(plain).toContain("Spanish");
    // The earlier file is gone; only the new one is kept.
    const now = (await getStorage().list("bios")).filter((k) => k.startsWith(`bios/${after.id}-`));
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(keys[0]);
    expect(now[0]).toMatch(/^bios\/\d+-[0-9a-f]{32}\.pdf$/);
  });

  it("answers 304 to a browser that has the current file", async () => {
    const first = await get("Rajiv-Menon");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"bio-[0-9a-f]{32}"$/);
    const again = await get("Rajiv-Menon", { "If-None-Match": etag });
    expect(again.status).toBe(304);
  });

  it("stays one page for a profile far longer than a page, ending long text with an ellipsis", async () => {
    const long = await createTeamMember(
      memberInput("Verbose Example Lawyer", {
        email: "verbose@example.com",
        extension: 999,
        mobile: "416-555-0199",
        desc: Array.from({ length: 60 }, (_, i) => `Paragraph ${i} of a very long biography that goes on and on about cases.`).join("\n\n"),
        AOP: ["insurance", "construction", "cyber"],
        area_details: ["Appeals", "Class actions", "Coverage issues", "Cyber claims", "Contract law", "Employment law"],
        admissions: Array.from({ length: 12 }, (_, i) => ({ jurisdiction: `Jurisdiction number ${i}`, year: 2000 + i })),
        languages: ["en", "fr", "es", "it", "de", "pt", "pl", "uk", "ru", "el"],
        other_languages: "Swedish, Norwegian, Danish, Finnish",
        education: Array.from({ length: 10 }, (_, i) => ({
          degree: `Degree ${i}`,
          school: `A School With A Long Name ${i}`,
          year: 1990 + i,
        })),
        specialist_area: "Civil Litigation",
        specialist_year: 2015,
      }),
      TEST_ACTOR,
    );
    const { info, plain } = poppler(new Uint8Array(await (await get(long.slug)).arrayBuffer()));
    expect(pages(info)).toBe(1);
    expect(plain).toContain("Paragraph 0 of a very long biography");
    expect(plain).not.toContain("Paragraph 59");
    expect(plain).toContain("…");
    expect(plain).toContain("Jurisdiction number 0, 2000");
  });

  it("a member without a photo gets a bio too; hidden, unknown and trashed members have none (the site's 404)", async () => {
    const noPhoto = await get("Patrick-Lindqvist");
    expect(noPhoto.status).toBe(200);
    expect(pages(poppler(new Uint8Array(await noPhoto.arrayBuffer())).info)).toBe(1);

    const hidden: TeamMember = await createTeamMember(
      {
        ...memberInput("Hidden Bio Person", {
          title: "Associate",
          email: "hidden@example.com",
          extension: 5,
          desc: "Not yet announced.",
          AOP: [],
        }),
        visibility: { visible: false, visibleFrom: null, hiddenFrom: null },
      },
      TEST_ACTOR,
    );
    const refused = await get(hidden.slug);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe("Error. Could not retrieve lawyer.");
    expect((await getStorage().list("bios")).some((k) => k.startsWith(`bios/${hidden.id}-`))).toBe(false);
    expect((await get("Nobody-Here")).status).toBe(404);
  });

  it("an old address of the profile answers 301 to the current bio", async () => {
    const m = (await getTeamMemberBySlug("Amelia-Brandt"))!;
    await updateTeamMember(m.id, { ...m, full_name: "Amelia Brandt-Lowe" }, TEST_ACTOR);
    const moved = await get("Amelia-Brandt");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("Location")).toBe("/lawyer/Amelia-Brandt-Lowe/bio.pdf");
  });

  it("the storage key changes with every printed field (and only then)", async () => {
    const m = (await getTeamMemberBySlug("Catherine-Doyle"))!;
    const input = {
      ...m,
      matters: bioMatters(m.matters),
      insights: [],
      profileUrl: "http://localhost:3000/lawyer/Catherine-Doyle",
    };
    expect(bioKey(input)).toBe(bioKey({ ...input }));
    expect(bioKey({ ...input, education: [] })).not.toBe(bioKey(input));
    expect(bioKey({ ...input, memberships: [...input.memberships, "Advocates' Society"] })).not.toBe(bioKey(input));
    expect(bioKey({ ...input, matters: input.matters.slice(1) })).not.toBe(bioKey(input));
    expect(bioKey({ ...input, insights: [{ title: "New", date: "Monday, March 2, 2026" }] })).not.toBe(bioKey(input));
  });
});
