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
    PAGE_CACHE: z.enum(["on", "off"]).default("on"),
  })
  .superRefine((env, ctx) => {
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
};

export class EnvError extends Error {}

/** Parse an environment object; throws EnvError with one line naming the variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0]!;
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

/** For tests: replace the parsed environment. */
export function setEnvForTests(overrides: Record<string, string | undefined>) {
  cached = parseEnv({ ...process.env, ...overrides });
  return cached;
}
