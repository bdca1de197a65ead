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
    route("*", "routes/public/not-found.tsx"),
  ]),
  // Resource routes.
  route("lawyer/:slug/vcard", "routes/public/vcard.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("insights/feed.xml", "routes/seo/feed.ts"),
  route("og/:kind/:file", "routes/seo/og-image.ts"),

  // Staff: sign-in, sign-out and the dashboard (every loader and action checks the session).
  route("admin", "routes/admin/login.tsx"),
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
      route("hours/edit", "routes/admin/hours.tsx"),
      route("headers/edit", "routes/admin/headers.tsx"),
    ]),
  ]),
] satisfies RouteConfig;
