/** Every route under the dashboard layout, collected from app/routes.ts (so a new route cannot be missed). */
import routes from "~/routes";

type Entry = { file: string; path?: string; index?: boolean; children?: Entry[] };

/** `pattern`: the route's path as app/routes.ts writes it ("/dashboard/lawyer/:slug"); `url`: one address of it. */
export type AdminRoute = { file: string; pattern: string; url: string; params: Record<string, string> };

export function adminRoutes(): AdminRoute[] {
  const out: AdminRoute[] = [];
  const walk = (entries: Entry[], prefix: string, inside: boolean) => {
    for (const e of entries) {
      const here = e.path ? `${prefix}/${e.path}`.replace(/\/+/g, "/") : prefix;
      const isAdminLayout = e.file === "routes/admin/layout.tsx";
      if (inside || isAdminLayout) {
        const params: Record<string, string> = {};
        const url = here.replace(/:(\w+)/g, (_m, name: string) => ((params[name] = name === "id" ? "1" : "someone"), params[name]));
        out.push({ file: e.file, pattern: here || "/dashboard", url: url || "/dashboard", params });
      }
      if (e.children) walk(e.children, here, inside || isAdminLayout);
    }
  };
  walk(routes, "", false);
  return out;
}
