/**
 * The beacon's behaviour (app/enhance/stats.ts) against small stand-ins for
 * the browser's document, window and navigator: a prerendered page sends its
 * view only once it is shown (Chromium in the tests loads a pressed link
 * rather than prerendering it, so the browser tests cannot show this);
 * Global Privacy Control sends nothing; time on page counts visible time
 * only and is sent once at `pagehide`; a page back from the back/forward
 * cache is a view again, not a new visit; telephone links are outbound
 * actions, other links are not.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Sent = Record<string, unknown>;

class FakeElement {
  constructor(
    readonly attributes: Record<string, string>,
    readonly anchor?: { origin: string; pathname: string; href: string },
  ) {}
  closest(selector: string) {
    return selector === "a[href]" && this.anchor ? { ...this.anchor } : null;
  }
}

let sent: Sent[];
let documentTarget: EventTarget & { prerendering?: boolean; visibilityState: string; referrer: string };
let windowTarget: EventTarget;
let now = 0;

function install(options: { prerendering?: boolean; gpc?: boolean; results?: string } = {}) {
  sent = [];
  now = 1000;
  documentTarget = Object.assign(new EventTarget(), {
    prerendering: options.prerendering ?? false,
    visibilityState: options.prerendering ? "hidden" : "visible",
    referrer: "https://www.google.com/",
    querySelector: () => (options.results === undefined ? null : { dataset: { searchResults: options.results } }),
  });
  windowTarget = new EventTarget();
  vi.stubGlobal("document", documentTarget);
  vi.stubGlobal("Element", FakeElement);
  vi.stubGlobal("location", {
    pathname: "/search",
    search: "?q=x",
    origin: "https://firm.example",
    href: "https://firm.example/search?q=x",
  });
  vi.stubGlobal("addEventListener", windowTarget.addEventListener.bind(windowTarget));
  vi.stubGlobal("performance", { now: () => now });
  vi.stubGlobal("navigator", {
    globalPrivacyControl: options.gpc ?? false,
    sendBeacon: (url: string, body: string) => {
      expect(url).toBe("/stats/beacon");
      sent.push(JSON.parse(body) as Sent);
      return true;
    },
  });
}

const pageEvent = (type: string, persisted = false) => Object.assign(new Event(type), { persisted });

async function start() {
  vi.resetModules();
  const { enhanceStats } = await import("./stats");
  enhanceStats();
}

beforeEach(() => install());
afterEach(() => vi.unstubAllGlobals());

describe("the statistics beacon in the browser", () => {
  it("a prerendered page sends its view only when it is shown, and its time from then on", async () => {
    install({ prerendering: true, results: "3" });
    await start();
    now += 5000; // prerendered, not yet seen
    expect(sent).toEqual([]);
    documentTarget.prerendering = false;
    documentTarget.visibilityState = "visible";
    documentTarget.dispatchEvent(new Event("prerenderingchange"));
    expect(sent).toEqual([{ p: "/search?q=x", k: "v", r: "https://www.google.com/", n: 3 }]);
    now += 2000;
    windowTarget.dispatchEvent(pageEvent("pagehide"));
    expect(sent[1]).toEqual({ p: "/search?q=x", k: "l", d: 2000 });
  });

  it("a page prerendered and never shown sends nothing, even when it is thrown away", async () => {
    install({ prerendering: true });
    await start();
    windowTarget.dispatchEvent(pageEvent("pagehide"));
    expect(sent).toEqual([]);
  });

  it("sends nothing at all under Global Privacy Control", async () => {
    install({ gpc: true });
    await start();
    windowTarget.dispatchEvent(pageEvent("pagehide"));
    expect(sent).toEqual([]);
  });

  it("counts visible time only, sends it once; back from the back/forward cache is a view again (not a visit's start)", async () => {
    await start();
    expect(sent).toHaveLength(1);
    now += 3000;
    documentTarget.visibilityState = "hidden";
    documentTarget.dispatchEvent(new Event("visibilitychange"));
    now += 60_000; // another tab
    documentTarget.visibilityState = "visible";
    documentTarget.dispatchEvent(new Event("visibilitychange"));
    now += 1000;
    windowTarget.dispatchEvent(pageEvent("pagehide", true));
    windowTarget.dispatchEvent(pageEvent("pagehide", true));
    expect(sent.slice(1)).toEqual([{ p: "/search?q=x", k: "l", d: 4000 }]);
    windowTarget.dispatchEvent(pageEvent("pageshow", true));
    expect(sent[2]).toEqual({ p: "/search?q=x", k: "v", r: "https://firm.example/search?q=x" });
  });

  it("a telephone, e-mail, contact-card or PDF link is an outbound action; another link is not", async () => {
    await start();
    const click = (anchor: { origin: string; pathname: string; href: string }) => {
      const event = new Event("click");
      Object.defineProperty(event, "target", { value: new FakeElement({}, anchor) });
      documentTarget.dispatchEvent(event);
    };
    click({ origin: "null", pathname: "", href: "tel:+14165550100" });
    click({ origin: "https://firm.example", pathname: "/lawyer/jane-doe/vcard", href: "https://firm.example/lawyer/jane-doe/vcard" });
    click({ origin: "https://firm.example", pathname: "/lawyer/jane-doe/bio.pdf", href: "https://firm.example/lawyer/jane-doe/bio.pdf" });
    click({ origin: "https://firm.example", pathname: "/team", href: "https://firm.example/team" });
    click({ origin: "https://elsewhere.example", pathname: "/x", href: "https://elsewhere.example/x" });
    expect(sent.slice(1).map((s) => s.h)).toEqual(["tel:+14165550100", "/lawyer/jane-doe/vcard", "/lawyer/jane-doe/bio.pdf"]);
  });
});
