import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  // Public site: navigation and footer around every page.
  layout("routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("team", "routes/public/team.tsx"),
    route("lawyer/:slug", "routes/public/lawyer.tsx"),
    route("insights", "routes/public/insights.tsx"),
    route("post/:slug", "routes/public/post.tsx"),
    route("insurance", "routes/public/practice.tsx", { id: "practice-insurance" }),
    route("construction", "routes/public/practice.tsx", { id: "practice-construction" }),
    route("cyber", "routes/public/practice.tsx", { id: "practice-cyber" }),
    route("disclaimer", "routes/public/disclaimer.tsx"),
    route("accessibility", "routes/public/accessibility.tsx"),
    route("copyright", "routes/public/copyright.tsx"),
    route("contact", "routes/public/contact.tsx"),
    route("privacy", "routes/public/privacy.tsx"),
    route("search", "routes/public/search.tsx"),
    // Insight subscriptions (issue 31): the sign-up form, the double opt-in link and the preferences page (never cached but the form).
    route("subscribe", "routes/public/subscribe.tsx"),
    route("subscribe/confirm/:token", "routes/public/subscribe-confirm.tsx"),
    route("subscribe/preferences/:token", "routes/public/subscribe-preferences.tsx"),
    // Previews of what the public cannot see yet: staff, or a share-a-preview link (app/.server/preview.ts; never cached).
    route("preview/post/:slug", "routes/public/preview-post.tsx", { id: "preview-post" }),
    route("preview/lawyer/:slug", "routes/public/preview-lawyer.tsx", { id: "preview-lawyer" }),
    route("preview/shared/post/:slug", "routes/public/preview-post.tsx", { id: "preview-shared-post" }),
    route("preview/shared/lawyer/:slug", "routes/public/preview-lawyer.tsx", { id: "preview-shared-lawyer" }),
    route("*", "routes/public/not-found.tsx"),
  ]),
  // Resource routes.
  route("lawyer/:slug/vcard", "routes/public/vcard.ts"),
  route("lawyer/:slug/bio.pdf", "routes/public/bio-pdf.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("insights/feed.xml", "routes/seo/feed.ts"),
  route("og/:kind/:file", "routes/seo/og-image.ts"),
  // Visit statistics: the beacon's one ingestion endpoint (POST only; decision 0020).
  route("stats/beacon", "routes/stats/beacon.ts"),
  // RFC 8058 one-click unsubscribe (POST without cookies from a mail provider; server/app.ts lets it through).
  route("subscribe/one-click/:token", "routes/public/subscribe-one-click.ts"),

  // Staff: sign-in, sign-out and the dashboard (every loader and action checks the session).
  route("admin", "routes/admin/login.tsx"),
  route("admin/two-factor", "routes/admin/two-factor.tsx"),
  route("admin/passkey", "routes/admin/passkey-options.ts"),
  route("admin/forgot-password", "routes/admin/forgot-password.tsx"),
  route("admin/reset-password/:token", "routes/admin/reset-password.tsx"),
  route("admin/invitation/:token", "routes/admin/invitation.tsx"),
  route("logout", "routes/admin/logout.ts"),
  layout("routes/admin/layout.tsx", [
    ...prefix("dashboard", [
      index("routes/admin/dashboard.tsx"),
      route("lawyers", "routes/admin/lawyers.tsx"),
      route("lawyers/new", "routes/admin/lawyer-new.tsx"),
      route("lawyer/:slug", "routes/admin/lawyer-edit.tsx"),
      route("articles", "routes/admin/articles.tsx"),
      route("articles/new", "routes/admin/article-new.tsx"),
      route("articles/:id/edit", "routes/admin/article-edit.tsx"),
      // The article editor's JSON resources: body pictures and the autosaved working copy.
      route("articles/pictures", "routes/admin/article-picture.ts"),
      route("articles/autosave", "routes/admin/article-autosave.ts"),
      route("trash", "routes/admin/trash.tsx"),
      route("history/:kind/:id", "routes/admin/history.tsx"),
      route("hours/edit", "routes/admin/hours.tsx"),
      route("headers/edit", "routes/admin/headers.tsx"),
      route("enquiries", "routes/admin/enquiries.tsx"),
      route("enquiries/:id", "routes/admin/enquiry.tsx"),
      route("subscribers", "routes/admin/subscribers.tsx"),
      route("subscribers/export", "routes/admin/subscribers-export.ts"),
      route("subscribers/import", "routes/admin/subscribers-import.ts"),
      route("subscribers/:id", "routes/admin/subscriber.tsx"),
      route("statistics", "routes/admin/statistics.tsx"),
      route("statistics/export", "routes/admin/statistics-export.ts"),
      route("staff", "routes/admin/staff.tsx"),
      route("activity", "routes/admin/activity.tsx"),
      route("outbox", "routes/admin/outbox.tsx"),
      route("outbox/:id", "routes/admin/outbox-message.tsx"),
      route("account", "routes/admin/account.tsx"),
      route("account/two-factor", "routes/admin/account-two-factor.tsx"),
      route("account/passkey-options", "routes/admin/account-passkey-options.ts"),
    ]),
  ]),
] satisfies RouteConfig;
