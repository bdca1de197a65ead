/**
 * The environment, parsed once by a Zod schema. A bad value stops the
 * server with one line naming the variable (see `loadEnv`).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    DATA_DIR: z.string().default("./data"),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
        .optional(),
    ),
    ADMIN_EMAIL: optionalText.pipe(z.email("must be an e-mail address").optional()),
    ADMIN_PASSWORD: optionalText.pipe(
      z.string().min(12, "must be at least 12 characters").max(128, "must be at most 128 characters").optional(),
    ),
    AUTH_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    PUBLIC_URL: optionalText.pipe(z.url("must be a full URL such as https://www.example.com").optional()),
    TRUST_PROXY: z
      .enum(["true", "false", "1", "0", ""])
      .default("false")
      .transform((v) => v === "true" || v === "1"),
    SEED_DEMO: z
      .enum(["true", "false", "1", "0", ""])
      .default("true")
      .transform((v) => v !== "false" && v !== "0"),
    LOG_LEVEL: z.enum(["silent", "error", "info"]).default("info"),
    /**
     * The scrypt cost of new staff password hashes (auth/password.ts): "standard" (N = 2^17) for every real site;
     * "test" (N = 2^12, ~1/32 of the work) only for the test suites, whose servers hash and check passwords hundreds
     * of times (decision 0029). Refused for a site served over https://.
     */
    PASSWORD_HASH_COST: z.enum(["standard", "test"], 'must be "standard" (or "test", for test runs only)').default("standard"),
    PAGE_CACHE: z.enum(["on", "off"]).default("on"),
    // S3-compatible bucket for pictures (storage-s3.ts); without S3_BUCKET pictures stay in DATA_DIR/uploads.
    S3_BUCKET: optionalText.pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 lower-case letters, digits, dots and hyphens)")
        .optional(),
    ),
    S3_ENDPOINT: optionalText.pipe(z.url("must be a full URL such as https://s3.eu-central-1.amazonaws.com").optional()),
    S3_REGION: optionalText,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: z
      .enum(["true", "false", "1", "0", ""])
      .default("false")
      .transform((v) => v === "true" || v === "1"),
    PICTURE_BASE_URL: optionalText.pipe(z.url("must be a full URL such as https://pictures.example.com").optional()),
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.com:465")
        .optional(),
    ),
    MAIL_FROM: optionalText.pipe(
      z
        .string()
        .max(320)
        .regex(/^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, 'must be an address such as "Firm name <web@example.com>"')
        .optional(),
    ),
    AUDIT_RETENTION_DAYS: z.coerce.number().int("must be a whole number of days").min(1, "must be at least 1 day").max(36500).default(730),
    /** Who is told of a new enquiry: one address or several, separated by commas. Unset: no notification (enquiries are still kept). */
    ENQUIRY_TO: optionalText.pipe(
      z
        .string()
        .max(2000)
        .transform((v) =>
          v
            .split(",")
            .map((a) => a.trim())
            .filter(Boolean),
        )
        .pipe(z.array(z.email("must be one e-mail address or several separated by commas")).min(1).max(20, "may list at most 20 addresses"))
        .optional(),
    ),
    ENQUIRY_RETENTION_DAYS: z.coerce.number().int("must be a whole number of days").min(1, "must be at least 1 day").max(3650).default(180),
    /** Event registrants' personal data are erased this many days after their event ended (issue 45; two years by default). */
    EVENT_REGISTRANT_RETENTION_DAYS: z.coerce
      .number()
      .int("must be a whole number of days")
      .min(1, "must be at least 1 day")
      .max(3650)
      .default(730),
    /** Sign-up e-mails (confirmations, preferences links) the whole site sends in an hour; past it they are held and owners alerted (issue 42). */
    SIGN_UP_EMAILS_PER_HOUR: z.coerce
      .number()
      .int("must be a whole number of e-mails an hour")
      .min(1, "must be at least 1")
      .max(100_000, "must be at most 100000")
      .default(300),
    /** Requests for express consent sent to imported addresses a day (Subscribers: "Ask for consent"; the rest wait for the next day; issue 42). */
    CONSENT_REQUESTS_PER_DAY: z.coerce
      .number()
      .int("must be a whole number of e-mails a day")
      .min(1, "must be at least 1")
      .max(100_000, "must be at most 100000")
      .default(200),
    /** Messages a second one instance sends to subscribers (a mailing's pace; issue 31). */
    SUBSCRIBER_MAIL_RATE: z.coerce
      .number()
      .int("must be a whole number of messages a second")
      .min(1, "must be at least 1")
      .max(2000)
      .default(200),
    /** Raw visit-statistics events are deleted after this many days (the hourly and daily rollups are kept longer). */
    STATS_RAW_DAYS: z.coerce.number().int("must be a whole number of days").min(2, "must be at least 2 days").max(366).default(30),
    /** The hourly and daily visit-statistics rollups are deleted after this many days (25 months: a year against the year before). */
    STATS_ROLLUP_DAYS: z.coerce.number().int("must be a whole number of days").min(2, "must be at least 2 days").max(3660).default(760),
    /** Page views (and each other kind of beacon) counted per visitor a minute; the rest are answered 204 and dropped. */
    STATS_MAX_VIEWS_PER_MINUTE: z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(10_000).default(60),
    /** Referrers, campaigns, search terms and outbound targets: the this many most frequent of each a day are kept, the rest counted as "other". */
    STATS_TOP_VALUES: z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(10_000).default(100),
    /** The 404 log keeps at most this many paths a day (the rest are counted together). */
    NOT_FOUND_PATHS_PER_DAY: z.coerce.number().int("must be a whole number").min(10, "must be at least 10").max(100_000).default(500),
    /** The largest event recording taken as an uploaded file, in bytes (2 GB by default; nginx's limit for the upload matches, deploy/nginx). */
    RECORDING_MAX_BYTES: z.coerce
      .number()
      .int("must be a whole number of bytes")
      .min(1024 * 1024, "must be at least 1048576 (1 MB)")
      .max(5 * 1024 ** 3, "must be at most 5368709120 (5 GB)")
      .default(2 * 1024 ** 3),
    /** Days of the 404 log kept. */
    NOT_FOUND_LOG_DAYS: z.coerce.number().int("must be a whole number of days").min(7, "must be at least 7 days").max(730).default(90),
  })
  .superRefine((env, ctx) => {
    const s3Settings = ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
    const stray = s3Settings.find((name) => env[name] !== undefined);
    if (!env.S3_BUCKET && stray) {
      ctx.addIssue({
        code: "custom",
        path: [stray],
        message: "is set but S3_BUCKET is not: set S3_BUCKET to keep pictures in a bucket (or unset the S3_ variables)",
      });
    }
    if (!!env.S3_ACCESS_KEY_ID !== !!env.S3_SECRET_ACCESS_KEY) {
      const missing = env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: "is required with the other S3 key (set both, or neither to use the machine's AWS credentials)",
      });
    }
    if (env.STATS_RAW_DAYS > env.STATS_ROLLUP_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["STATS_RAW_DAYS"],
        message: "must not be more than STATS_ROLLUP_DAYS (raw events never outlive the rollups)",
      });
    }
    if (env.PASSWORD_HASH_COST === "test" && env.PUBLIC_URL?.startsWith("https://")) {
      ctx.addIssue({
        code: "custom",
        path: ["PASSWORD_HASH_COST"],
        message: "is for test runs only: a site served over https:// hashes staff passwords at the standard cost (remove the variable)",
      });
    }
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET && env.PUBLIC_URL?.startsWith("https://")) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "is required in production (32+ random characters, e.g. `openssl rand -hex 32`)",
      });
    }
  });

export type Env = z.infer<typeof envSchema> & {
  dataDir: string;
  publicUrl: string;
  authSecret: string;
  /** Where picture URLs point: PICTURE_BASE_URL without its trailing slash, or "/images". */
  pictureBase: string;
};

export class EnvError extends Error {}

/** Parse an environment object; throws EnvError with one line naming the variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue.path[0] ?? "environment");
    throw new EnvError(`Invalid environment variable ${name}: ${issue.message}`);
  }
  const env = result.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return {
    ...env,
    dataDir: path.resolve(env.DATA_DIR),
    publicUrl,
    authSecret: env.AUTH_SECRET ?? localSecret(path.resolve(env.DATA_DIR)),
    pictureBase: env.PICTURE_BASE_URL ? env.PICTURE_BASE_URL.replace(/\/+$/, "") : "/images",
  };
}

/**
 * Without AUTH_SECRET (a local run over http; https deployments must set it,
 * see above) a random secret is made once and kept in DATA_DIR, so sessions
 * survive restarts and no secret is ever shared between installations.
 */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, ".auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("hex");
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

let testOverrides: Record<string, string | undefined> = {};

/**
 * For tests: forget every override, so a test file starts from the process's own environment even when
 * it shares its worker's modules with the files before it (tests/support/each-file.ts).
 */
export function resetEnvForTests() {
  testOverrides = {};
  cached = undefined;
}

/** For tests: replace the parsed environment (overrides add to those set before in the same test file). */
export function setEnvForTests(overrides: Record<string, string | undefined>) {
  testOverrides = { ...testOverrides, ...overrides };
  cached = parseEnv({ ...process.env, ...testOverrides });
  return cached;
}
