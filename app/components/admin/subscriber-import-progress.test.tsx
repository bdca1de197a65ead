/**
 * A finished import's refused rows (subscriber-import-progress.tsx): the
 * download link says when the file holds only the first rows kept (the
 * count goes on past IMPORT_REFUSALS_KEPT), so nobody mends the file
 * believing every refused row is in it.
 */
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { IMPORT_REFUSALS_KEPT } from "~/lib/forms/subscriber-import";
import { importView, REFUSALS_SHOWN } from "~/lib/subscriber-import-view";
import { ImportProgress } from "./subscriber-import-progress";

function finished(refused: number, kept: number) {
  return importView({
    id: 7,
    status: "done",
    file_name: "list.csv",
    created_by: "Ada",
    created_at: new Date("2026-12-01T15:00:00Z"),
    rows_total: refused + 10,
    rows_read: refused + 10,
    accepted: 10,
    refused,
    refusals: Array.from({ length: kept }, (_, i) => ({ row: i + 2, email: `r${i}@example`, reason: "Not an e-mail address." })),
    error: "",
  });
}

function render(view: ReturnType<typeof importView>) {
  const Stub = createRoutesStub([{ path: "/dashboard/subscribers", Component: () => <ImportProgress initial={view} /> }]);
  return renderToString(<Stub initialEntries={["/dashboard/subscribers"]} />);
}

const link = (html: string) => /<a [^>]*href="\/dashboard\/subscribers\/imports\/7\/refused"[^>]*>([^<]*)<\/a>/.exec(html)?.[1];

describe("a finished import's refused rows", () => {
  it("every refused row kept: the link downloads them all", () => {
    expect(link(render(finished(3, 3)))).toBe("Download the refused rows (CSV)");
  });

  it("more refused than kept: the link says how many the file holds, and the table how many it lists", () => {
    const html = render(finished(12_345, IMPORT_REFUSALS_KEPT));
    expect(link(html)).toBe("Download the first 5,000 refused rows (CSV)");
    expect(html).toContain(`(the first ${REFUSALS_SHOWN} of 12,345)`);
  });
});
