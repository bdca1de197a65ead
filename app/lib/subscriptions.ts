/**
 * The shape of an RFC 8058 one-click unsubscribe address (/subscribe/one-click/<signed token>, made by
 * app/.server/subscriptions/links.ts): the only path let through the cross-site refusal (server/same-origin.ts),
 * since a one-click POST comes from the recipient's mail provider.
 */
export const ONE_CLICK_PATH = /^\/subscribe\/one-click\/[0-9a-z]{1,12}\.[0-9a-z]{1,12}\.[A-Za-z0-9_-]{32}$/;
