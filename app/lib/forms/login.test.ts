import { describe, expect, it } from "vitest";
import { loginSchema, safeRedirect } from "./login";

describe("login form schema", () => {
  it("needs an email and a password", () => {
    expect(loginSchema.safeParse({ email: "a@b.c", password: "x" }).success).toBe(true);
    expect(loginSchema.safeParse({ email: " ", password: "" }).error!.issues.map((i) => i.path[0])).toEqual(["email", "password"]);
    expect(loginSchema.safeParse({ email: "a".repeat(400), password: "x" }).success).toBe(false);
  });
});

describe("redirect after sign-in", () => {
  it("allows only a path on this site", () => {
    expect(safeRedirect("/dashboard/lawyers?q=a")).toBe("/dashboard/lawyers?q=a");
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "",
      null,
      undefined,
      ["/x"],
      "/a\nb",
    ]) {
      expect(safeRedirect(bad)).toBe("/dashboard");
    }
  });
});
