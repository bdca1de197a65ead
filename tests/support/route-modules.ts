/**
 * The routes of app/routes.ts with each route's module, in the shape of
 * React Router's server build (`build.routes`): what the server reads route
 * handles from, for tests that run without a build.
 */
import type { ServerBuild } from "react-router";
import routes from "~/routes";

type Entry = { id?: string; file: string; path?: string; index?: boolean; children?: Entry[] };

const modules = import.meta.glob<Record<string, unknown>>("../../app/routes/**/*.{ts,tsx}");

/** Each route id's module file, relative to app/ (filled by routeModules). */
export const routeFiles = new Map<string, string>();

export async function routeModules(): Promise<ServerBuild["routes"]> {
  const table: ServerBuild["routes"] = {};
  const walk = async (entries: Entry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.tsx?$/, "");
      const load = modules[`../../app/${entry.file}`];
      if (!load) throw new Error(`app/routes.ts names ${entry.file}, which is not a file under app/routes`);
      routeFiles.set(id, entry.file);
      table[id] = { id, parentId, path: entry.path, index: entry.index, caseSensitive: undefined, module: (await load()) as never };
      if (entry.children) await walk(entry.children, id);
    }
  };
  await walk(routes, "root");
  return table;
}
