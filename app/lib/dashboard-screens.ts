/**
 * The dashboard's screens: its home cards and (marked `nav`) its navigation.
 * Each names the permission it needs (roles.ts decides who has it); loaders
 * pass on only the screens the signed-in role may open.
 */
import type { Permission } from "./permissions";

export type DashboardScreen = {
  to: string;
  title: string;
  text: string;
  /** null: every staff member. */
  permission: Permission | null;
  nav: boolean;
};

export const DASHBOARD_SCREENS: readonly DashboardScreen[] = [
  { to: "/dashboard/lawyers", title: "Manage Team", text: "Add, edit or remove team members.", permission: "content", nav: false },
  {
    to: "/dashboard/articles",
    title: "Manage Articles",
    text: "Write, edit or remove news and insights.",
    permission: "content",
    nav: false,
  },
  {
    to: "/dashboard/trash",
    title: "Trash",
    text: "Deleted team members and articles, kept 30 days: restore or delete for good.",
    permission: "content",
    nav: false,
  },
  {
    to: "/dashboard/hours/edit",
    title: "Update Office Hours",
    text: "The opening hours shown on the home page.",
    permission: "content",
    nav: false,
  },
  {
    to: "/dashboard/headers/edit",
    title: "Update Page Headers",
    text: "The text under each page banner.",
    permission: "content",
    nav: false,
  },
  {
    to: "/dashboard/enquiries",
    title: "Enquiries",
    text: "Messages sent through the website's enquiry form.",
    permission: "enquiries",
    nav: true,
  },
  {
    to: "/dashboard/subscribers",
    title: "Subscribers",
    text: "People who subscribed to insights by e-mail, with the record of their consent.",
    permission: "subscriber-counts",
    nav: true,
  },
  {
    to: "/dashboard/statistics",
    title: "Statistics",
    text: "Visits, pages read, referrers, searches and enquiries: counted by the site itself, without cookies.",
    permission: "statistics",
    nav: true,
  },
  {
    to: "/dashboard/redirects",
    title: "Redirects",
    text: "Old addresses that send visitors to new ones, and the addresses that were not found (404).",
    permission: "redirects",
    nav: true,
  },
  {
    to: "/dashboard/import/wordpress",
    title: "Move from WordPress",
    text: "Import a WordPress site's posts, pages, pictures and files, with a redirect from every old address.",
    permission: "wordpress-import",
    nav: false,
  },
  { to: "/dashboard/staff", title: "Staff", text: "Invite people, change roles, deactivate accounts.", permission: "staff", nav: true },
  { to: "/dashboard/activity", title: "Activity", text: "Who changed what, when and from where.", permission: "activity", nav: true },
  {
    to: "/dashboard/outbox",
    title: "Outbox",
    text: "The e-mails the site has made: read them, send them again.",
    permission: "outbox",
    nav: true,
  },
  {
    to: "/dashboard/account",
    title: "My account",
    text: "Your password, two-factor sign-in, passkeys and sessions.",
    permission: null,
    nav: true,
  },
];
