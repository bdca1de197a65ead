/**
 * GET /lawyer/:slug/bio.pdf — a visible lawyer's one-page bio (issue 33;
 * app/.server/content/bio-pdf.ts): made once for the profile's current content and
 * kept in storage, like the pictures. A hidden, scheduled or trashed member
 * has none (the site's 404 text, as for the profile and the vCard); an old
 * address of the profile answers 301 to the current one.
 */
import type { Route } from "./+types/bio-pdf";
import { bioMatters, getBioPdf, type BioInput } from "~/.server/content/bio-pdf";
import { listArticlePage } from "~/.server/db/articles";
import { findMovedSlug } from "~/.server/db/slug-lookup";
import { getTeamMemberBySlug } from "~/.server/db/team";
import { log } from "~/.server/log";
import { absoluteUrl } from "~/.server/http/site-url";
import { StorageUnavailable } from "~/.server/storage/storage";

/** The latest insights the bio lists. */
export const BIO_INSIGHTS = 3;

const text = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

export async function loader({ params, request }: Route.LoaderArgs) {
  const member = await getTeamMemberBySlug(params.slug);
  if (!member) {
    const moved = await findMovedSlug("lawyer", params.slug);
    if (moved) return new Response(null, { status: 301, headers: { Location: `/lawyer/${encodeURIComponent(moved)}/bio.pdf` } });
    return text("Error. Could not retrieve lawyer.", 404);
  }
  const insights = await listArticlePage({ filter: "all", page: 1, pageSize: BIO_INSIGHTS, authorId: member.id });
  const input: BioInput = {
    id: member.id,
    slug: member.slug,
    full_name: member.full_name,
    title: member.title,
    email: member.email,
    extension: member.extension,
    mobile: member.mobile,
    desc: member.desc,
    img: member.img,
    AOP: member.AOP,
    area_details: member.area_details,
    admissions: member.admissions,
    languages: member.languages,
    other_languages: member.other_languages,
    education: member.education,
    specialist_area: member.specialist_area,
    specialist_year: member.specialist_year,
    matters: bioMatters(member.matters),
    memberships: member.memberships,
    insights: insights.items.map((a) => ({ title: a.title, date: a.date })),
    profileUrl: absoluteUrl(`/lawyer/${encodeURIComponent(member.slug)}`),
  };
  let pdf: { bytes: Buffer; hash: string };
  try {
    pdf = await getBioPdf(input);
  } catch (error) {
    if (!(error instanceof StorageUnavailable)) throw error;
    log("warn", "bio PDF not served", { error: error.message });
    return text("Picture storage unavailable", 503, { "Retry-After": "10" });
  }
  const etag = `"bio-${pdf.hash}"`;
  // The same address answers a new file after a change: a browser asks again (ETag), a proxy keeps it a minute.
  const headers = {
    "Cache-Control": "public, max-age=0, s-maxage=60, must-revalidate",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(pdf.bytes), {
    headers: {
      ...headers,
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.bytes.byteLength),
      "Content-Disposition": `inline; filename="${member.slug.replace(/[^A-Za-z0-9-]/g, "")}-bio.pdf"`,
    },
  });
}
