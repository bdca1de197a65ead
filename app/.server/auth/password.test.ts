import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv, setEnvForTests } from "../env";
import { hashPassword, verifyPassword } from "./password";

afterEach(() => setEnvForTests({ PASSWORD_HASH_COST: "test" }));

describe("staff password hashes", () => {
  it("use scrypt at N = 2^17, r = 8, p = 1 unless the environment says test, and verify only the right password", async () => {
    setEnvForTests({ PASSWORD_HASH_COST: undefined });
    const hash = await hashPassword("a-long-enough-password");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash, password: "a-long-enough-password" })).toBe(true);
    expect(await verifyPassword({ hash, password: "a-long-enough-passwort" })).toBe(false);
  });

  it("at the test cost still verify, and a hash of either cost verifies under the other setting", async () => {
    setEnvForTests({ PASSWORD_HASH_COST: "test" });
    const quick = await hashPassword("another-long-password");
    expect(quick).toMatch(/^scrypt\$4096\$8\$1\$/);
    setEnvForTests({ PASSWORD_HASH_COST: "standard" });
    expect(await verifyPassword({ hash: quick, password: "another-long-password" })).toBe(true);
    expect(await verifyPassword({ hash: quick, password: "another-long-passwore" })).toBe(false);
  });

  it("refuse the test cost for a site served over https", () => {
    expect(() => parseEnv({ PASSWORD_HASH_COST: "test", PUBLIC_URL: "https://www.example.com", AUTH_SECRET: "x".repeat(40) })).toThrow(
      /^Invalid environment variable PASSWORD_HASH_COST: is for test runs only/,
    );
    expect(() => parseEnv({ PASSWORD_HASH_COST: "weak" })).toThrow(/^Invalid environment variable PASSWORD_HASH_COST: must be "standard"/);
    expect(
      parseEnv({
        PASSWORD_HASH_COST: "test",
        PUBLIC_URL: "http://localhost:3000",
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "env-")),
      }).PASSWORD_HASH_COST,
    ).toBe("test");
  });
});
