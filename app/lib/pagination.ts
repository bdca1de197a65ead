/** Pages of the article lists: six previews a page (SPEC §9). */
export const PAGE_SIZE = 6;

export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A page number from the URL: whole, at least 1; anything else is page 1. */
export function parsePage(raw: string | null | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

/** Clamp a requested page into 1..pageCount. */
export function clampPage(page: number, total: number, pageSize = PAGE_SIZE): number {
  return Math.min(Math.max(1, page), pageCount(total, pageSize));
}

export function pageOffset(page: number, pageSize = PAGE_SIZE): number {
  return (page - 1) * pageSize;
}

/** A dashboard list's URL at a search and page (`?q=…&page=…`; page 1 and no search leave them out). */
export function listHref(path: string, q: string, page: number): string {
  const params = new URLSearchParams({ ...(q ? { q } : {}), ...(page > 1 ? { page: String(page) } : {}) }).toString();
  return `${path}${params ? `?${params}` : ""}`;
}
