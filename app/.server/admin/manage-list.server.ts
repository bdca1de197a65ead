import { listSearch } from "~/lib/list-search";
import { parsePage } from "~/lib/pagination";
import { parseId } from "../http/form-post";

/**
 * What the address of a Manage list (articles, team, events;
 * components/admin/manage-list.tsx) asks for: the search (at most 200
 * characters), the page, and the row whose deletion is to be confirmed.
 */
export function manageListQuery(request: Request): { q: string; page: number; confirmId: number | null } {
  const params = new URL(request.url).searchParams;
  return {
    q: listSearch(params.get("q")),
    page: parsePage(params.get("page")),
    confirmId: parseId(params.get("confirm")),
  };
}
