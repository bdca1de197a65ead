/**
 * /dashboard/articles in pages: 50 rows a page, newest first; the search
 * and the page travel in the URL (links that work without JavaScript); a
 * page past the end shows the last; a delete (with its confirmation, also
 * for a row on another page) comes back to the same search and page.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_ARTICLES_PAGE_SIZE, createArticle, getArticleById } from "~/.server/db/articles";
import * as articlesRoute from "~/routes/admin/articles";
import { callRoute } from "../support/route-call";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { signedIn } from "../support/staff-session";

setUpTestDatabase();
const ORIGIN = "http://localhost:3000";
const TOTAL = 120;
let cookie = "";
/** Ids by title number: "Memo 1" is the oldest, "Memo 120" the newest. */
const ids = new Map<number, number>();

beforeAll(async () => {
  cookie = await signedIn("pages@example.com", "owner", "10.9.0.7");
  for (let n = 1; n <= TOTAL; n++) {
    // Every third one is an "Odd" memo, to search for.
    const title = n % 3 === 0 ? `Odd memo ${n}` : `Memo ${n}`;
    const row = await createArticle(
      {
        title,
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: "<p>Text.</p>",
        created_at: new Date(Date.UTC(2025, 0, 1) + n * 60_000),
      },
      TEST_ACTOR,
    );
    ids.set(n, row.id);
  }
});

type ListData = Awaited<ReturnType<typeof articlesRoute.loader>>;
async function list(query: string): Promise<ListData> {
  const result = await callRoute(articlesRoute.loader, new Request(`${ORIGIN}/dashboard/articles${query}`, { headers: { cookie } }));
  expect(result.status).toBe(200);
  return result.data as ListData;
}
const numbers = (data: ListData) => data.items.map((a) => Number(/\d+$/.exec(a.title)![0]));
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => from - i);

/** The screen as the server renders it for these loader data. */
function render(data: ListData, url: string): string {
  const Stub = createRoutesStub([
    { path: "/dashboard/articles", Component: () => createElement(articlesRoute.default, { loaderData: data } as never) },
  ]);
  return renderToString(createElement(Stub, { initialEntries: [url] }));
}

describe("the dashboard's article list in pages", () => {
  it("shows the newest 50 first, then the next 50, then the rest", async () => {
    expect(ADMIN_ARTICLES_PAGE_SIZE).toBe(50);
    const first = await list("");
    expect(first.paging).toEqual({ page: 1, pageCount: 3, total: TOTAL });
    expect(numbers(first)).toEqual(range(120, 71));
    expect(numbers(await list("?page=2"))).toEqual(range(70, 21));
    const last = await list("?page=3");
    expect(numbers(last)).toEqual(range(20, 1));
    expect(last.paging.page).toBe(3);
  });

  it("takes a page past the end as the last one, and a page that is not a number as the first", async () => {
    expect((await list("?page=99")).paging.page).toBe(3);
    expect(numbers(await list("?page=99"))).toEqual(range(20, 1));
    for (const bad of ["?page=abc", "?page=-2", "?page=0", "?page=1e3", "?page="]) expect((await list(bad)).paging.page).toBe(1);
  });

  it("pages the search's matches, and the page links keep the search", async () => {
    const odd = await list("?q=odd");
    expect(odd.paging).toEqual({ page: 1, pageCount: 1, total: 40 });
    expect(odd.items.every((a) => a.title.startsWith("Odd memo"))).toBe(true);
    const memo = await list("?q=memo&page=3");
    expect(memo.paging).toEqual({ page: 3, pageCount: 3, total: TOTAL });

    const html = render(await list("?q=memo&page=2"), "/dashboard/articles?q=memo&page=2");
    expect(html).toContain('aria-label="Pagination"');
    expect(html).toMatch(/href="\/dashboard\/articles\?q=memo"[^>]*rel="prev"/);
    expect(html).toMatch(/href="\/dashboard\/articles\?q=memo&amp;page=3"[^>]*rel="next"/);
    expect(html).toMatch(/aria-current="page"[^>]*>2</);
    expect(html).toContain("50 shown of 120, page 2 of 3");
    // The delete buttons carry the search and the page, for the confirmation without JavaScript.
    expect(html).toContain('<input type="hidden" name="page" value="2"/>');
  });

  it("shows no page links when everything fits on one page", async () => {
    const html = render(await list("?q=odd"), "/dashboard/articles?q=odd");
    expect(html).not.toContain('aria-label="Pagination"');
    expect(html).toContain("40 shown");
  });

  it("confirms a delete of a row from another page, and comes back to the same search and page", async () => {
    const oldest = ids.get(1)!;
    const confirming = await list(`?page=2&confirm=${oldest}`);
    expect(confirming.confirming).toEqual({ id: oldest, name: "Memo 1" });
    const html = render(confirming, `/dashboard/articles?page=2&confirm=${oldest}`);
    expect(html).toMatch(/href="\/dashboard\/articles\?page=2"[^>]*>Cancel</);

    const body = new URLSearchParams({ intent: "delete", id: String(ids.get(50)!), q: "memo", page: "2" });
    const deleted = await callRoute(
      articlesRoute.action,
      new Request(`${ORIGIN}/dashboard/articles?q=memo&page=2`, { method: "POST", body, headers: { cookie, origin: ORIGIN } }),
    );
    expect(deleted).toMatchObject({ status: 302, location: "/dashboard/articles?q=memo&page=2" });
    expect(await getArticleById(ids.get(50)!)).toBeUndefined();
    expect(numbers(await list("?q=memo&page=2"))).toEqual([...range(70, 51), ...range(49, 20)]);
    expect((await list("")).paging.total).toBe(TOTAL - 1);
  });
});
