/**
 * Speculation Rules of the public pages (Chromium browsers; others ignore
 * them): same-site public pages are prefetched when the visitor hovers a
 * link (200 ms) or presses it, and the page of the link being pressed — the
 * most likely next page — is prerendered, so a click shows it at once. No
 * client router is needed for an instant page change. Never speculated: the
 * dashboard, sign-in and sign-out, downloads (the vCard), feeds and other
 * files, links that ask not to be (`rel~=nofollow`, `data-no-prefetch`).
 * Allowed by the CSP through the page's nonce or the script's hash.
 */
const where = {
  and: [
    { href_matches: "/*" },
    {
      not: {
        href_matches: [
          "/admin",
          "/admin?*",
          "/admin/*",
          "/dashboard",
          "/dashboard?*",
          "/dashboard/*",
          "/logout",
          "/logout?*",
          "/*/vcard",
          "/*.xml",
          "/*.txt",
          "/og/*",
          "/images/*",
          "/assets/*",
        ],
      },
    },
    { not: { selector_matches: "[download], [rel~=nofollow], [data-no-prefetch], [target=_blank]" } },
  ],
};

export const SPECULATION_RULES = JSON.stringify({
  prefetch: [{ source: "document", where, eagerness: "moderate" }],
  prerender: [{ source: "document", where, eagerness: "conservative" }],
});
