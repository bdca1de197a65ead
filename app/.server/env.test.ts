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

  it("bounds the visit statistics: views a visitor a minute, values kept a day, how long rollups stay", () => {
    const env = parseEnv({ DATA_DIR: tmp() });
    expect([env.STATS_MAX_VIEWS_PER_MINUTE, env.STATS_TOP_VALUES, env.STATS_ROLLUP_DAYS, env.STATS_RAW_DAYS]).toEqual([60, 100, 760, 30]);
    expect(parseEnv({ DATA_DIR: tmp(), STATS_MAX_VIEWS_PER_MINUTE: "20" }).STATS_MAX_VIEWS_PER_MINUTE).toBe(20);
    expect(() => parseEnv({ STATS_MAX_VIEWS_PER_MINUTE: "0" })).toThrow(
      /^Invalid environment variable STATS_MAX_VIEWS_PER_MINUTE: must be at least 1/,
    );
    expect(() => parseEnv({ STATS_TOP_VALUES: "many" })).toThrow(/^Invalid environment variable STATS_TOP_VALUES: /);
    expect(() => parseEnv({ STATS_ROLLUP_DAYS: "20", STATS_RAW_DAYS: "30" })).toThrow(
      /STATS_RAW_DAYS: must not be more than STATS_ROLLUP_DAYS/,
    );
    expect(() => parseEnv({ STATS_BEACON_PORT: "3001", DATA_DIR: tmp() })).not.toThrow(); // no such setting any more: ignored
  });

  it("requires AUTH_SECRET for a production deployment over https", () => {
    expect(() => parseEnv({ NODE_ENV: "production", PUBLIC_URL: "https://www.example.com", DATA_DIR: tmp() })).toThrow(/AUTH_SECRET/);
    const ok = parseEnv({ NODE_ENV: "production", PUBLIC_URL: "https://www.example.com", AUTH_SECRET: "x".repeat(40) });
    expect(ok.authSecret).toBe("x".repeat(40));
  });
});

describe("enquiry settings", () => {
  it("reads ENQUIRY_TO as one address or a comma-separated list, and ENQUIRY_RETENTION_DAYS (default 180)", () => {
    const dir = tmp();
    expect(parseEnv({ DATA_DIR: dir }).ENQUIRY_TO).toBeUndefined();
    expect(parseEnv({ DATA_DIR: dir, ENQUIRY_TO: "" }).ENQUIRY_TO).toBeUndefined();
    expect(parseEnv({ DATA_DIR: dir, ENQUIRY_TO: "intake@example.com" }).ENQUIRY_TO).toEqual(["intake@example.com"]);
    expect(parseEnv({ DATA_DIR: dir, ENQUIRY_TO: " a@example.com, b@example.com ," }).ENQUIRY_TO).toEqual([
      "a@example.com",
      "b@example.com",
    ]);
    expect(parseEnv({ DATA_DIR: dir }).ENQUIRY_RETENTION_DAYS).toBe(180);
    expect(parseEnv({ DATA_DIR: dir, ENQUIRY_RETENTION_DAYS: "30" }).ENQUIRY_RETENTION_DAYS).toBe(30);
  });

  it("names the variable when a value is bad", () => {
    expect(() => parseEnv({ ENQUIRY_TO: "not-an-address" })).toThrow(
      /^Invalid environment variable ENQUIRY_TO: must be one e-mail address/,
    );
    expect(() => parseEnv({ ENQUIRY_TO: "a@example.com, nope" })).toThrow(/ENQUIRY_TO/);
    expect(() => parseEnv({ ENQUIRY_RETENTION_DAYS: "0" })).toThrow(/ENQUIRY_RETENTION_DAYS: must be at least 1 day/);
    expect(() => parseEnv({ ENQUIRY_RETENTION_DAYS: "1.5" })).toThrow(/ENQUIRY_RETENTION_DAYS/);
  });
});

describe("pictures in a bucket", () => {
  it("keeps pictures on the disk unless S3_BUCKET is set", () => {
    const env = parseEnv({ DATA_DIR: tmp() });
    expect(env.S3_BUCKET).toBeUndefined();
    expect(env.pictureBase).toBe("/images");
  });

  it("reads the bucket settings and the picture address", () => {
    const env = parseEnv({
      DATA_DIR: tmp(),
      S3_BUCKET: "firm-pictures",
      S3_ENDPOINT: "https://s3.example.com",
      S3_REGION: "auto",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
      PICTURE_BASE_URL: "https://pictures.example.com/",
    });
    expect(env).toMatchObject({ S3_BUCKET: "firm-pictures", S3_REGION: "auto", S3_FORCE_PATH_STYLE: true });
    expect(env.pictureBase).toBe("https://pictures.example.com");
  });

  it("names the variable when the bucket settings do not fit together", () => {
    expect(() => parseEnv({ DATA_DIR: tmp(), S3_ENDPOINT: "https://s3.example.com" })).toThrow(
      /^Invalid environment variable S3_ENDPOINT: is set but S3_BUCKET is not/,
    );
    expect(() => parseEnv({ DATA_DIR: tmp(), S3_BUCKET: "firm-pictures", S3_ACCESS_KEY_ID: "key" })).toThrow(
      /S3_SECRET_ACCESS_KEY: is required/,
    );
    expect(() => parseEnv({ DATA_DIR: tmp(), S3_BUCKET: "Not A Bucket" })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => parseEnv({ DATA_DIR: tmp(), S3_BUCKET: "ok-bucket", S3_ENDPOINT: "not a url" })).toThrow(/S3_ENDPOINT/);
    expect(() => parseEnv({ DATA_DIR: tmp(), PICTURE_BASE_URL: "pictures" })).toThrow(/PICTURE_BASE_URL/);
  });
});
