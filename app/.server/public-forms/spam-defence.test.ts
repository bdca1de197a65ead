import { beforeAll, describe, expect, it } from "vitest";
import { checkFormToken, issueFormToken, MIN_FILL_SECONDS, TOKEN_LIFETIME_MS } from "./spam-defence";
import { setEnvForTests } from "../env";

beforeAll(() => {
  setEnvForTests({ AUTH_SECRET: "a".repeat(40), DATA_DIR: "/tmp/firm-token-test" });
});

describe("the enquiry form's timing token", () => {
  const t0 = Date.UTC(2026, 0, 5, 15, 0, 0);

  it("a form, in a page or answered to a POST, may be sent MIN_FILL_SECONDS later, not sooner; that is at most 3 s (a person never waits longer)", () => {
    expect(MIN_FILL_SECONDS).toBeLessThanOrEqual(3);
    const token = issueFormToken(t0);
    expect(checkFormToken(token, t0)).toBe("early");
    expect(checkFormToken(token, t0 + MIN_FILL_SECONDS * 1000 - 1)).toBe("early");
    expect(checkFormToken(token, t0 + MIN_FILL_SECONDS * 1000)).toBe("ok");
    expect(checkFormToken(token, t0 + 3000)).toBe("ok");
  });

  it("expires after a day and cannot be made up or altered", () => {
    const token = issueFormToken(t0);
    const ready = t0 + MIN_FILL_SECONDS * 1000;
    expect(checkFormToken(token, ready + TOKEN_LIFETIME_MS)).toBe("ok");
    expect(checkFormToken(token, ready + TOKEN_LIFETIME_MS + 1)).toBe("expired");
    const [v, time, sig] = token.split(".");
    const earlier = (parseInt(time, 36) - 60_000).toString(36);
    expect(checkFormToken(`${v}.${earlier}.${sig}`, ready)).toBe("invalid");
    expect(checkFormToken(`${v}.${time}.${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`, ready)).toBe("invalid");
    for (const bad of [undefined, "", "1", "x".repeat(500), ["a"], "1.zz.zz"]) expect(checkFormToken(bad, ready)).toBe("invalid");
  });

  it("depends on the site's secret", () => {
    const token = issueFormToken(t0);
    setEnvForTests({ AUTH_SECRET: "b".repeat(40) });
    expect(checkFormToken(token, t0 + 10_000)).toBe("invalid");
    setEnvForTests({ AUTH_SECRET: "a".repeat(40) });
    expect(checkFormToken(token, t0 + 10_000)).toBe("ok");
  });
});
