/**
 * URL rules of the spec.
 * - A lawyer's slug is the full name with spaces turned into hyphens
 *   ("Jane Q. Doe" -> "Jane-Q.-Doe"); a suffix (-2, -3…) only when two people share a name.
 * - An article's slug is the title with punctuation removed and whitespace
 *   turned into hyphens ("Cyber: what now?" -> "Cyber-what-now").
 */
export function lawyerSlug(fullName: string): string {
  return (
    fullName
      .trim()
      .replace(/\s+/g, "-")
      .replace(/[/?#%\\]/g, "") || "member"
  );
}

export function articleSlug(title: string): string {
  return (
    title
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}\s-]/gu, "")
      .trim()
      .replace(/\s+/g, "-") || "article"
  );
}

/** `base`, or `base-2`, `base-3`… — the first that `taken` does not hold. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
