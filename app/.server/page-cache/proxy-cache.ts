/**
 * How long a shared proxy in front of the site (deploy/nginx, decision 0008)
 * may keep a public page: to the end of the current second. nginx reads
 * `X-Accel-Expires: @<unix seconds>` (and hides it from visitors); with
 * `proxy_cache_use_stale updating` and a background update, a page is then
 * never served more than about one second after a staff save, while the
 * instances see about one request a page a second. (`proxy_cache_valid 1s`
 * alone keeps a page up to 2 s: nginx counts whole seconds.)
 */
let second = 0;
let value = "";

export function proxyExpiry(now = Date.now()): string {
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    value = `@${s}`;
  }
  return value;
}
