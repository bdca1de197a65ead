/**
 * The public site's only JavaScript (issue 15, ARCHITECTURE.md "Public pages").
 *
 * Public pages are rendered by React on the server and load no framework
 * code. This module, built on its own by Vite (vite-plugins/public-enhancement.ts)
 * and loaded `type="module"`, adds the few behaviours the spec gives the
 * public frame. Each one reads data attributes of the server's markup; every
 * link, filter, page and form works without it.
 *
 *   data-site-header, data-home    the navigation style (solid after 5 px, or off home)
 *   data-menu-button, data-menu    the hamburger menu (data-menu-link is its no-JS twin)
 *   data-section="about|contact|top", data-section-slow
 *                                  section scrolls (go home, 120 ms, target − 30 px, 500/650 ms)
 *   .fade-section                  fade in once, 25 % visible
 *   data-arrow-keys                arrow keys move between the links of a tab bar
 *   data-keep-focus="name"         the link used keeps the focus on the page it loads
 *   data-map-frame, data-map-show  "Show the map" puts Google's map in place of the site's own picture
 *   data-search-button, data-search-box
 *                                  the header's search box (data-search-link is its no-JS twin)
 *   data-team-filters              the team directory's filters follow each choice without a reload
 *   data-search-results             the visit statistics' beacon (stats.ts: views, time on page, outbound links)
 *
 * When it has run, <html> carries data-enhanced="true".
 */
import { enhanceFadeIns } from "./fade-in";
import { enhanceHeader } from "./header";
import { enhanceKeyboard } from "./keyboard";
import { enhanceLoadingStatus } from "./loading-status";
import { enhanceMapFrames } from "./map-frame";
import { enhanceSearch } from "./search";
import { enhanceSectionLinks } from "./section-links";
import { enhanceTeamFilters } from "./team-filters";
import { enhanceStats } from "./stats";

const menu = enhanceHeader();
enhanceSectionLinks(menu);
enhanceSearch(() => menu.close());
enhanceFadeIns();
enhanceKeyboard();
enhanceLoadingStatus();
enhanceMapFrames();
enhanceTeamFilters();
enhanceStats();
document.documentElement.dataset.enhanced = "true";
