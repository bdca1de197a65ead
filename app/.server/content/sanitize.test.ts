/** The article body allowlist against known XSS payloads: nothing executable survives; sanitising is idempotent. */
import { describe, expect, it } from "vitest";
import { sanitizeArticleHtml } from "./sanitize";

const PAYLOADS = [
  `<script>alert(1)</script>`,
  `<SCRIPT SRC=//evil.example/x.js></SCRIPT>`,
  `<img src=x onerror=alert(1)>`,
  `<p onclick="alert(1)">hi</p>`,
  `<a href="javascript:alert(1)">x</a>`,
  `<a href="JaVaScRiPt:alert(1)">x</a>`,
  `<a href="jav&#x09;ascript:alert(1)">x</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>`,
  `<a href=" javascript:alert(1)">x</a>`,
  `<a href="vbscript:msgbox(1)">x</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>`,
  `<svg onload=alert(1)><script>alert(1)</script></svg>`,
  `<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
  `<iframe src="javascript:alert(1)"></iframe>`,
  `<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
  `<object data="javascript:alert(1)"></object><embed src="x.swf">`,
  `<style>body{background:url(javascript:alert(1))}</style>`,
  `<p style="background:url(javascript:alert(1))">x</p>`,
  `<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>`,
  `<form action="javascript:alert(1)"><button>x</button></form>`,
  `<input autofocus onfocus=alert(1)>`,
  `<details open ontoggle=alert(1)>`,
  `<body onload=alert(1)>`,
  `<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
  `<base href="javascript:/">`,
  `<template><script>alert(1)</script></template>`,
  `<xmp><img src=x onerror=alert(1)></xmp>`,
  `<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">`,
  `<a href="//evil.example">protocol-relative</a>`,
  `<<script>alert(1)//<</script>`,
  `<scr<script>ipt>alert(1)</scr</script>ipt>`,
  `<!--<img src=x onerror=alert(1)>-->`,
  `<a href="https://example.com" onmouseover="alert(1)">ok</a>`,
];

function assertSafe(html: string) {
  expect(html).not.toMatch(/<\s*(script|iframe|object|embed|svg|math|style|img|form|input|base|meta|template|noscript|body|details)/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/(javascript|vbscript|data):/i);
  expect(html).not.toMatch(/href="\/\//i);
  expect(html).not.toMatch(/style=/i);
}

describe("article HTML sanitiser", () => {
  it.each(PAYLOADS)("neutralises %s", (payload) => {
    const once = sanitizeArticleHtml(payload);
    assertSafe(once);
    expect(sanitizeArticleHtml(once)).toBe(once);
  });

  it("keeps what the editor makes", () => {
    const html =
      '<h2>Heading</h2><h3>Sub</h3><p><strong>b</strong> <em>i</em></p><ul><li>one</li></ul><ol><li>two</li></ol><blockquote><p>q</p></blockquote><p><a href="https://example.com">link</a> <a href="mailto:a@b.c">mail</a></p>';
    const out = sanitizeArticleHtml(html);
    expect(out).toContain("<h2>Heading</h2>");
    expect(out).toContain("<blockquote><p>q</p></blockquote>");
    expect(out).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">link</a>');
    expect(out).toContain('<a href="mailto:a@b.c">mail</a>');
    expect(sanitizeArticleHtml(out)).toBe(out);
  });

  it("is idempotent on every payload combined", () => {
    const once = sanitizeArticleHtml(PAYLOADS.join("\n"));
    assertSafe(once);
    expect(sanitizeArticleHtml(once)).toBe(once);
  });
});
