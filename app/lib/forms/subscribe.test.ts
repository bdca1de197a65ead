/** The mailbox an address delivers to (issue 42: limits per mailbox, not per string) and RFC 5321's lengths. */
import { describe, expect, it } from "vitest";
import { addressTooLong, mailboxKey, subscribeSchema } from "./subscribe";

describe("mailboxKey", () => {
  it("lower-cases and drops a +tag at any domain", () => {
    expect(mailboxKey("Victim@Example.COM")).toBe("victim@example.com");
    expect(mailboxKey(" victim+1@example.com ")).toBe("victim@example.com");
    expect(mailboxKey("victim+news+more@example.com")).toBe("victim@example.com");
    // Dots count everywhere but at Gmail.
    expect(mailboxKey("v.i.c.t.i.m@example.com")).toBe("v.i.c.t.i.m@example.com");
  });

  it("drops dots at gmail.com and googlemail.com, and counts both as one service", () => {
    expect(mailboxKey("V.i.c.t.i.m@gmail.com")).toBe("victim@gmail.com");
    expect(mailboxKey("v.ictim+2@GoogleMail.com")).toBe("victim@gmail.com");
    expect(mailboxKey("victim@googlemail.com")).toBe(mailboxKey("vic.tim+x@gmail.com"));
  });

  it("keeps what is not a tag: a leading +, the domain's own dots, an address without @", () => {
    expect(mailboxKey("+tag@example.com")).toBe("+tag@example.com");
    expect(mailboxKey("a.b@mail.gmail.com.example")).toBe("a.b@mail.gmail.com.example");
    expect(mailboxKey("not-an-address")).toBe("not-an-address");
  });
});

describe("RFC 5321 lengths", () => {
  const local64 = "a".repeat(64);
  it("allows 254 characters in all and 64 before the @, not one more", () => {
    const at254 = `${local64}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`;
    expect(at254).toHaveLength(254);
    expect(addressTooLong(at254)).toBe(false);
    expect(addressTooLong(`${at254}x`)).toBe(true);
    expect(addressTooLong(`${local64}@example.com`)).toBe(false);
    expect(addressTooLong(`${local64}a@example.com`)).toBe(true);
  });

  it("refuses a longer address on the sign-up form with a clear message", () => {
    const valid = { topics: ["news"], consent: "yes" };
    for (const email of [`${"a".repeat(65)}@example.com`, `a@${"b".repeat(250)}.com`, `${"a".repeat(60)}@${"b".repeat(300)}.ca`]) {
      const parsed = subscribeSchema.safeParse({ ...valid, email });
      expect(parsed.success, email).toBe(false);
      expect(parsed.error?.issues[0]?.message, email).toBe(
        "This e-mail address is too long to be delivered: at most 254 characters in all, and 64 before the @.",
      );
    }
    expect(subscribeSchema.safeParse({ ...valid, email: `${"a".repeat(64)}@example.com` }).success).toBe(true);
  });
});
