/** The links of the navigation and footer (SPEC §2, wording as specified). */
export type NavItem = { label: string; to?: string; section?: "about" | "contact" };

/** The entries the navigation and the footer share, word for word. */
const ABOUT_US: NavItem = { label: "about us", section: "about" };
const OUR_TEAM: NavItem = { label: "our team", to: "/team" };
const EVENTS: NavItem = { label: "events", to: "/events" };
const CONTACT: NavItem = { label: "contact", section: "contact" };

export const MAIN_NAV: NavItem[] = [
  ABOUT_US,
  { label: "Insurance", to: "/insurance" },
  { label: "construction", to: "/construction" },
  { label: "cyber", to: "/cyber" },
  OUR_TEAM,
  { label: "news & insights", to: "/insights" },
  // Not in the spec's navigation: events and webinars (issue 45).
  EVENTS,
  CONTACT,
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
      ABOUT_US,
      OUR_TEAM,
      { label: "insights", to: "/insights" },
      EVENTS,
      // Not in the spec's footer: the insight sign-up (issue 31), linked from every page.
      { label: "subscribe", to: "/subscribe" },
      CONTACT,
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
