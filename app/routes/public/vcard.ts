/**
 * GET /lawyer/:slug/vcard — the lawyer's contact card as a vCard 4.0 file.
 * Served with text/vcard so iOS Safari opens it directly (no calendar-invite
 * workaround is needed).
 */
import type { Route } from "./+types/vcard";
import { getTeamMemberBySlug } from "~/.server/db/team";
import { absoluteUrl } from "~/.server/site-url";
import { FIRM } from "~/config/firm";
import { hasImage, imageUrl } from "~/lib/images";
import { buildVCard, vcardContentDisposition } from "~/lib/vcard";

export async function loader({ params }: Route.LoaderArgs) {
  const member = await getTeamMemberBySlug(params.slug);
  if (!member) {
    return new Response("Error. Could not retrieve lawyer.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  // Absolute URLs from PUBLIC_URL (not the request's Host, which a proxy or client controls).
  const body = buildVCard(member, FIRM, {
    photoUrl: hasImage(member.img) ? absoluteUrl(imageUrl("team", member.img)) : undefined,
    profileUrl: absoluteUrl(`/lawyer/${encodeURIComponent(member.slug)}`),
  });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/vcard; charset=utf-8",
      "Content-Disposition": vcardContentDisposition(member.full_name),
    },
  });
}
