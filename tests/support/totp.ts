/** An authenticator app for the two-factor tests: the six-digit codes of a key shown in base32. */
import { createOTP } from "@better-auth/utils/otp";

/** RFC 4648 base32 (the key shown to the person; spaces and padding ignored) to bytes. */
export function base32Decode(text: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.replace(/[\s=]+/g, "")) {
    value = (value << 5) | alphabet.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** The codes an authenticator app shows for `key` (6 digits, 30 s). */
export function authenticator(key: string) {
  return createOTP(new TextDecoder().decode(base32Decode(key)), { digits: 6, period: 30 });
}
