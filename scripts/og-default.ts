/**
 * Makes public/og-default.jpg: the site's 1200×630 link-preview picture
 * (Open Graph / Twitter card) for pages without a photo of their own, from
 * an SVG in the brand palette. Run once after changing the firm's name:
 * `npx tsx scripts/og-default.ts` (the result is committed).
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { FIRM } from "../app/config/firm";
import { SOCIAL_IMAGE_HEIGHT as H, SOCIAL_IMAGE_WIDTH as W } from "../app/lib/social";

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
    <radialGradient id="g" cx="0.8" cy="0.15" r="0.9"><stop offset="0" stop-color="#2a4466"/><stop offset="0.65" stop-color="#13233a"/></radialGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#g)"/>
  <g fill="none" stroke="#d8b26a" stroke-opacity="0.16">
    <path d="M700 630V90h400v540M760 630V150h280v480M700 210h400M700 330h400M700 450h400M900 90V630"/>
    <path d="M1100 630V290h100M560 630V370h140"/>
    <circle cx="900" cy="90" r="200" stroke-opacity="0.09"/><circle cx="900" cy="90" r="330" stroke-opacity="0.06"/>
  </g>
  <rect x="80" y="150" width="96" height="4" fill="#d8b26a"/>
  <text x="80" y="120" font-family="Inter, Liberation Sans, DejaVu Sans, sans-serif" font-size="22" font-weight="600" letter-spacing="5" fill="#d8b26a">TORONTO · LITIGATION COUNSEL</text>
  <text x="80" y="250" font-family="Source Serif 4, DejaVu Serif, Georgia, serif" font-size="84" font-weight="600" fill="#ffffff">${escape(FIRM.shortName)}</text>
  <text x="80" y="330" font-family="Inter, Liberation Sans, DejaVu Sans, sans-serif" font-size="30" font-weight="600" letter-spacing="8" fill="#d8b26a">LLP</text>
  <text font-family="Source Serif 4, DejaVu Serif, Georgia, serif" font-size="40" fill="#ffffff" fill-opacity="0.92">
    <tspan x="80" y="450">Our reputation is</tspan><tspan x="80" y="504">built on results</tspan>
  </text>
  <text x="80" y="570" font-family="Inter, Liberation Sans, DejaVu Sans, sans-serif" font-size="22" fill="#ffffff" fill-opacity="0.8">Insurance defence · Construction disputes · Cyber incident response</text>
</svg>`;

const out = path.resolve(import.meta.dirname, "../public/og-default.jpg");
const bytes = await sharp(Buffer.from(svg)).flatten({ background: "#13233a" }).jpeg({ quality: 84, mozjpeg: true }).toBuffer();
fs.writeFileSync(out, bytes);
const meta = await sharp(bytes).metadata();
console.log(`${path.relative(process.cwd(), out)}: ${meta.width}×${meta.height}, ${bytes.byteLength} bytes`);
