/**
 * The one call made to fontkit (pdfkit's font engine, which ships no types):
 * parse a font file once, so every PDF bio reuses it (app/.server/content/bio-pdf.ts;
 * pdfkit's `registerFont` accepts a parsed fontkit font).
 */
declare module "fontkit" {
  export type Font = { postscriptName: string; layout: (text: string) => unknown };
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
