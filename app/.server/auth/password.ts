/**
 * Staff password hashing: scrypt with N = 2^17, r = 8, p = 1 (OWASP ASVS 5.0
 * level 2 minimum), through Node's own crypto. Stored as
 * `scrypt$N$r$p$salt$key` (hex), so the cost can be raised later and old
 * hashes still verify. The test suites hash with N = 2^12
 * (PASSWORD_HASH_COST=test, refused over https://; decision 0029).
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { getEnv } from "../env";

const COST = { standard: 2 ** 17, test: 2 ** 12 } as const;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = COST[getEnv().PASSWORD_HASH_COST];
  const key = await scrypt(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("hex")}$${key.toString("hex")}`;
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const parts = hash.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, saltHex, keyHex] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyHex, "hex");
  const actual = await scrypt(password, Buffer.from(saltHex, "hex"), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export { PASSWORD_MAX, PASSWORD_MIN } from "~/lib/forms/password";
