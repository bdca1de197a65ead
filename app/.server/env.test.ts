import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EnvError, parseEnv } from "./env";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "env-"));

describe("environment", () => {
  it("has safe development defaults", () => {
    const env = parseEnv({ DATA_DIR: tmp() });
    expect(env.PORT).toBe(3000);
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.authSecret.length).toBeGreaterThanOrEqual(32);
  });

  it("keeps a generated secret in DATA_DIR so sessions survive restarts", () => {
    const dir = tmp();
    expect(parseEnv({ DATA_DIR: dir }).authSecret).toBe(parseEnv({ DATA_DIR: dir }).authSecret);
    expect(parseEnv({ DATA_DIR: tmp() }).authSecret).not.toBe(parseEnv({ DATA_DIR: dir }).authSecret);
  });

  it("names the variable in one line when a value is bad", () => {
    expect(() => parseEnv({ PORT: "abc" })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: "abc" })).toThrow(/^Invalid environment variable PORT: /);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ ADMIN_PASSWORD: "short" })).toThrow(/ADMIN_PASSWORD: must be at least 12/);
    expect(() => parseEnv({ PUBLIC_URL: "not a url" })).toThrow(/PUBLIC_URL/);
  });

  it("requires AUTH_SECRET for a production deployment over https", () => {
    expect(() => parseEnv({ NODE_ENV: "production", PUBLIC_URL: "https://www.example.com", DATA_DIR: tmp() })).toThrow(/AUTH_SECRET/);
    const ok = parseEnv({ NODE_ENV: "production", PUBLIC_URL: "https://www.example.com", AUTH_SECRET: "x".repeat(40) });
    expect(ok.authSecret).toBe("x".repeat(40));
  });
});
