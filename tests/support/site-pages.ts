/**
 * The public pages at fixed addresses (SPEC §2): home, the team, insights, the three practice pages, events,
 * and the disclaimer, accessibility, copyright, contact and privacy pages. The sitemap lists them before the
 * lawyers, posts and events; the browser checkers run on each of them.
 */
export const FIXED_PAGES = [
  "/",
  "/team",
  "/insights",
  "/insurance",
  "/construction",
  "/cyber",
  "/events",
  "/disclaimer",
  "/accessibility",
  "/copyright",
  "/contact",
  "/privacy",
];
