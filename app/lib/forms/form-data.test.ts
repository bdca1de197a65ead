import { describe, expect, it } from "vitest";
import { fieldErrors, formValues, hasMissing } from "./form-data";

describe("form values", () => {
  it("keeps the first value of single fields, collects listed ones and skips files", () => {
    const fd = new FormData();
    fd.append("a", "1");
    fd.append("a", "2");
    fd.append("tags", "x");
    fd.append("tags", "y");
    fd.append("file", new Blob(["z"]), "z.txt");
    expect(formValues(fd, ["tags", "none"])).toEqual({ a: "1", tags: ["x", "y"], none: [] });
  });
  it("maps issues to fields and spots missing ones", () => {
    const errors = fieldErrors([
      { path: ["title"], message: "Title is required." },
      { path: ["title"], message: "second" },
      { path: [], message: "form" },
    ]);
    expect(errors).toEqual({ title: "Title is required.", form: "form" });
    expect(hasMissing(errors)).toBe(true);
    expect(hasMissing({ email: "Enter a valid email address." })).toBe(false);
  });
});
