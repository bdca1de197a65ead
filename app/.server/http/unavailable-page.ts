/** The friendly page shown when the database cannot be reached (HTTP 503). */
import { FIRM } from "~/config/firm";

export function unavailablePage(): string {
  return `<!DOCTYPE html><html lang="en-CA"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>We'll be right back | ${FIRM.name}</title><meta name="robots" content="noindex">
<style>body{font-family:system-ui,sans-serif;background:#faf8f4;color:#13233a;margin:0}main{max-width:40rem;margin:0 auto;padding:6rem 1.5rem}h1{font-family:Georgia,serif;font-size:2.25rem}a{color:#1d5c63}</style></head>
<body><main id="main"><p>${FIRM.name}</p><h1>We'll be right back</h1>
<p>The site is briefly unavailable. Please try again in a moment.</p>
<p>To reach us now, call <a href="tel:${FIRM.phoneE164}">${FIRM.phone}</a> or e-mail <a href="mailto:${FIRM.email}">${FIRM.email}</a>.</p></main></body></html>`;
}
