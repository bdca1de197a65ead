/**
 * Pages that moved keep working: a lawyer or post URL in another case or
 * spelling, or from before a rename, answers 301 to the current page (through
 * the real loaders); anything else is still the spec's 404.
 */
import { testContext } from "../support/route-call";
import { eq } from "drizzle-orm";
import { isRouteErrorResponse } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { createArticle, deleteArticle, getArticleBySlug, updateArticle } from "~/.server/db/articles";
import { db } from "~/.server/db/client";
import { redirects } from "~/.server/db/schema";
import { slugCandidates } from "~/.server/db/slug-lookup";
import { createTeamMember, deleteTeamMember, getTeamMemberBySlug, updateTeamMember, type TeamMemberInput } from "~/.server/db/team";
import { loader as lawyerLoader } from "~/routes/public/lawyer";
import { loader as postLoader } from "~/routes/public/post";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";

setUpTestDatabase();

const member: TeamMemberInput = {
  full_name: "Jane Q. Doe",
  title: "Partner",
  email: "jane@firm.example",
  extension: 210,
  mobile: "",
  desc: "Bio.",
  img: "",
  AOP: ["cyber"],
  area_details: [],
  staff: [],
};

/** What the loader answers for a slug: "ok", "404", or the redirect target with its status. */
async function visit(kind: "lawyer" | "post", slug: string): Promise<string> {
  const loader = kind === "lawyer" ? lawyerLoader : postLoader;
  try {
    await loader({ params: { slug }, request: new Request(`http://localhost:3000/${kind}/x`), context: testContext() } as never);
    return "ok";
  } catch (thrown) {
    if (thrown instanceof Response) return `${thrown.status} ${thrown.headers.get("location")}`;
    if (isRouteErrorResponse(thrown)) return String(thrown.status);
    const init = (thrown as { init?: { status?: number } | null })?.init;
    if (init?.status) return String(init.status); // data(…, { status })
    throw thrown;
  }
}

beforeAll(async () => {
  await createTeamMember(member, TEST_ACTOR);
  await createArticle(
    { title: "Cyber: What Now?", img: "", category: "cyber", news: false, priority: false, copy: "<p>x</p>", date: "d" },
    TEST_ACTOR,
  );
});

describe("old and misspelt lawyer URLs", () => {
  it("the exact slug is the page itself", async () => {
    expect(await visit("lawyer", "Jane-Q.-Doe")).toBe("ok");
  });

  it.each(["jane-q.-doe", "JANE-Q.-DOE", "Jane Q. Doe", "Jane%20Q.%20Doe", "jane_q._doe", "Jane+Q.+Doe", " Jane Q. Doe "])(
    "%j answers 301 to /lawyer/Jane-Q.-Doe",
    async (slug) => {
      expect(await visit("lawyer", slug)).toBe("301 /lawyer/Jane-Q.-Doe");
    },
  );

  it("a name that matches nobody is still the spec's 404", async () => {
    expect(await visit("lawyer", "John-Doe")).toBe("404");
    expect(await visit("lawyer", "jane")).toBe("404");
    expect(await visit("lawyer", "Jane\0Doe")).toBe("404");
    expect(await visit("lawyer", "%E0%A4%A")).toBe("404");
  });

  it("after a rename the old URL (in any case) answers 301 to the new one, also after a second rename", async () => {
    const jane = (await getTeamMemberBySlug("Jane-Q.-Doe"))!;
    await updateTeamMember(jane.id, { ...member, full_name: "Jane Doe-Smith" }, TEST_ACTOR);
    expect(await visit("lawyer", "Jane-Doe-Smith")).toBe("ok");
    expect(await visit("lawyer", "Jane-Q.-Doe")).toBe("301 /lawyer/Jane-Doe-Smith");
    expect(await visit("lawyer", "jane-q.-doe")).toBe("301 /lawyer/Jane-Doe-Smith");
    await updateTeamMember(jane.id, { ...member, full_name: "Jane Smith" }, TEST_ACTOR);
    expect(await visit("lawyer", "Jane-Q.-Doe")).toBe("301 /lawyer/Jane-Smith");
    expect(await visit("lawyer", "Jane-Doe-Smith")).toBe("301 /lawyer/Jane-Smith");
    // An edit that keeps the name records nothing and changes nothing.
    await updateTeamMember(jane.id, { ...member, full_name: "Jane Smith", title: "Senior Partner" }, TEST_ACTOR);
    expect(await visit("lawyer", "Jane-Smith")).toBe("ok");
  });

  it("a new person who takes an old name gets the URL; a deleted person's old URLs are 404", async () => {
    const newcomer = await createTeamMember({ ...member, full_name: "Jane Doe Smith", email: "other@firm.example" }, TEST_ACTOR);
    expect(newcomer.slug).toBe("Jane-Doe-Smith");
    expect(await visit("lawyer", "Jane-Doe-Smith")).toBe("ok");
    await deleteTeamMember(newcomer.id, TEST_ACTOR);
    const jane = (await getTeamMemberBySlug("Jane-Smith"))!;
    await deleteTeamMember(jane.id, TEST_ACTOR);
    expect(await visit("lawyer", "Jane-Q.-Doe")).toBe("404");
    expect(await visit("lawyer", "Jane-Smith")).toBe("404");
  });
});

describe("old and misspelt post URLs", () => {
  it.each([
    "cyber-what-now",
    "CYBER-WHAT-NOW",
    "Cyber What Now",
    "Cyber:-What-Now%3F",
    "Cyber%3A%20What%20Now%3F",
    "cyber--what--now",
    "Cyber_What_Now",
  ])("%j answers 301 to /post/Cyber-What-Now", async (slug) => {
    expect(await visit("post", slug)).toBe("301 /post/Cyber-What-Now");
  });

  it("after a title change the old URL answers 301 to the new one; unknown posts are 404", async () => {
    const article = (await getArticleBySlug("Cyber-What-Now"))!;
    await updateArticle(
      article.id,
      { title: "Cyber Incidents: What Now", img: "", category: "cyber", news: false, priority: false, copy: "<p>x</p>" },
      TEST_ACTOR,
    );
    expect(await visit("post", "Cyber-What-Now")).toBe("301 /post/Cyber-Incidents-What-Now");
    expect(await visit("post", "cyber-what-now")).toBe("301 /post/Cyber-Incidents-What-Now");
    expect(await visit("post", "No-Such-Article")).toBe("404");
    await deleteArticle(article.id, TEST_ACTOR);
    expect(await visit("post", "Cyber-What-Now")).toBe("404");
  });

  it("a rename that takes an article off the site makes no redirect: its old address is a 404 that names no new title", async () => {
    const made = await createArticle(
      { title: "Quiet Notice", img: "", category: "cyber", news: false, priority: false, copy: "<p>x</p>", date: "d" },
      TEST_ACTOR,
    );
    await updateArticle(
      made.id,
      {
        title: "Quiet Notice Withdrawn Draft",
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: "<p>x</p>",
        state: { status: "draft" },
      },
      TEST_ACTOR,
    );
    expect(await visit("post", "Quiet-Notice")).toBe("404");
    const rules = await db().select().from(redirects).where(eq(redirects.source, "/post/quiet-notice"));
    expect(rules).toEqual([]);
  });
});

describe("slugCandidates", () => {
  it("tries the raw, decoded and rule-made spellings, lower-cased, without NUL", () => {
    expect(slugCandidates("lawyer", "Jane%20Doe")).toEqual(["jane%20doe", "jane doe", "jane-doe"]);
    expect(slugCandidates("post", "a\0b")).toEqual(["ab"]);
    expect(slugCandidates("post", "x".repeat(301))).toEqual([]);
  });
});
