import { getEnv } from "../env";

/** An absolute URL on the public site (from PUBLIC_URL). */
export function absoluteUrl(path: string): string {
  return `${getEnv().publicUrl}${path.startsWith("/") ? path : `/${path}`}`;
}
