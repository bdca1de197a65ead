/** The server half of the password rules: not one of the 10,000 most common passwords (compared without case). */
import { COMMON_PASSWORDS_TEXT } from "./common-passwords";

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(COMMON_PASSWORDS_TEXT.split("\n").map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
