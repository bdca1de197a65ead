import { describe, expect, it } from "vitest";
import { observatoryScore } from "../support/observatory";

describe("the Observatory-style scorer can fail", () => {
  it("scores a bare response low and penalises unsafe-inline scripts", () => {
    expect(observatoryScore(new Headers()).score).toBe(30); // -25 CSP, -20 HSTS, -5 XCTO, -20 XFO
    const unsafe = new Headers({
      "content-security-policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'",
      "strict-transport-security": "max-age=63072000",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
    });
    expect(observatoryScore(unsafe).results["content-security-policy"].modifier).toBe(-20);
    expect(observatoryScore(unsafe).score).toBe(80);
  });
});
