/** The links of the navigation and footer (SPEC §2, wording as specified). */
export type NavItem = { label: string; to?: string; section?: "about" | "contact" };

export const MAIN_NAV: NavItem[] = [
  { label: "about us", section: "about" },
  { label: "Insurance", to: "/insurance" },
  { label: "construction", to: "/construction" },
  { label: "cyber", to: "/cyber" },
  { label: "our team", to: "/team" },
  { label: "news & insights", to: "/insights" },
  // Not in the spec's navigation: events and webinars (issue 45).
  { label: "events", to: "/events" },
  { label: "contact", section: "contact" },
];

/** The hamburger menu lists these as well. */
export const MOBILE_EXTRA: NavItem[] = [
  { label: "Disclaimer", to: "/disclaimer" },
  { label: "Copyright", to: "/copyright" },
];

export const FOOTER_COLUMNS: { heading: string; items: NavItem[] }[] = [
  {
    heading: "The firm",
    items: [
      { label: "home", to: "/" },
      { label: "about us", section: "about" },
      { label: "our team", to: "/team" },
      { label: "insights", to: "/insights" },
      { label: "events", to: "/events" },
      // Not in the spec's footer: the insight sign-up (issue 31), linked from every page.
      { label: "subscribe", to: "/subscribe" },
      { label: "contact", section: "contact" },
    ],
  },
  {
    heading: "Practice areas",
    items: [
      { label: "insurance", to: "/insurance" },
      { label: "construction", to: "/construction" },
      { label: "cyber", to: "/cyber" },
    ],
  },
  {
    heading: "Legal",
    items: [
      { label: "disclaimer", to: "/disclaimer" },
      { label: "accessibility", to: "/accessibility" },
      { label: "copyright", to: "/copyright" },
      // Not in the spec's footer: the privacy notice the enquiry form links to (PIPEDA), findable from every page.
      { label: "privacy", to: "/privacy" },
    ],
  },
];
