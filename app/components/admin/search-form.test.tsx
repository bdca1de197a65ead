/**
 * The dashboard lists' one search box (search-form.tsx): a GET search
 * landmark named by the screen, the `q` box with the screen's label, the
 * screen's filters between the box and the button, the button's word, and
 * what comes after it.
 */
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { SearchForm } from "./search-form";

function render(element: React.ReactElement) {
  const Stub = createRoutesStub([{ path: "/dashboard/list", Component: () => element }]);
  return renderToString(<Stub initialEntries={["/dashboard/list?q=ada"]} />);
}

const tag = (html: string, name: string) => new RegExp(`<${name}\\b[^>]*>`).exec(html)?.[0] ?? "";

describe("SearchForm", () => {
  it("is a GET search landmark on the list's address, named by the screen, with the q box labelled in its words", () => {
    const html = render(<SearchForm name="Which subscribers to show" label="Search addresses" q="ada" button="Show" />);
    const form = tag(html, "form");
    expect(form).toContain('method="get"');
    expect(form).toContain('role="search"');
    expect(form).toContain('aria-label="Which subscribers to show"');
    expect(form).toContain('action="/dashboard/list?q=ada"');
    expect(html).toMatch(/<label for="q"[^>]*>Search addresses<\/label>/);
    const input = tag(html, "input");
    for (const attribute of ['id="q"', 'type="search"', 'name="q"', 'value="ada"', 'maxLength="200"', 'autoComplete="off"'])
      expect(input).toContain(attribute);
    expect(input).not.toContain("aria-describedby");
    expect(html).toMatch(/<button type="submit"[^>]*><svg[^>]*aria-hidden="true"[^>]*>.*<\/svg> <!-- -->Show<\/button>/);
  });

  it("has no name of its own on a screen with one list, says Search by default, and is described by the count when told", () => {
    const html = render(<SearchForm label="Search by name" q="" describedBy="search-count" />);
    expect(tag(html, "form")).not.toContain("aria-label");
    expect(tag(html, "input")).toContain('aria-describedby="search-count"');
    expect(html).toMatch(/<\/svg> <!-- -->Search<\/button>/);
  });

  it("puts the screen's filters between the box and the button, and what it adds after the button", () => {
    const html = render(
      <SearchForm label="Search" q="" after={<a href="/export">Export</a>}>
        <select name="origin" />
      </SearchForm>,
    );
    const at = (text: string) => html.indexOf(text);
    expect(at('name="q"')).toBeGreaterThan(-1);
    expect(at('name="q"')).toBeLessThan(at('name="origin"'));
    expect(at('name="origin"')).toBeLessThan(at("<button"));
    expect(at("<button")).toBeLessThan(at('href="/export"'));
    expect(at('href="/export"')).toBeLessThan(at("</form>"));
  });
});
