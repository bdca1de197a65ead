/**
 * GET /lawyer/:slug/vcard — the lawyer's contact card as a vCard 3.0 file
 * (RFC 2426: what Outlook for Windows imports, as do Apple, Google and
 * Android address books) with the portrait embedded. Served as text/vcard
 * to every device: on iPhone and iPad Safari opens it straight into
 * Contacts, which is what the original's calendar-invite workaround for
 * Apple mobile devices achieved.
 */
import type { Route } from "./+types/vcard";
import { getTeamMemberBySlug } from "~/.server/db/team";
import { log } from "~/.server/log";
import { absoluteUrl } from "~/.server/http/site-url";
import { getVCardPhoto } from "~/.server/pictures/vcard-photo";
import { FIRM } from "~/config/firm";
import { hasImage } from "~/lib/images";
import { buildVCard, vcardContentDisposition, type VCardPhoto } from "~/lib/vcard";

export async function loader({ params }: Route.LoaderArgs) {
  const member = await getTeamMemberBySlug(params.slug);
  if (!member) {
    return new Response("Error. Could not retrieve lawyer.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  let photo: VCardPhoto | undefined;
  if (hasImage(member.img)) {
    try {
      const bytes = await getVCardPhoto(member.img);
      if (bytes) photo = { type: "JPEG", base64: bytes.toString("base64") };
    } catch (error) {
      // A picture that cannot be read: the card without it rather than no card.
      log("error", "vcard photo not made", { id: member.id, error: (error as Error).message.slice(0, 200) });
    }
  }
  // Absolute URL from PUBLIC_URL (not the request's Host, which a proxy or client controls).
  const body = buildVCard(member, FIRM, { photo, profileUrl: absoluteUrl(`/lawyer/${encodeURIComponent(member.slug)}`) });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/vcard; charset=utf-8",
      "Content-Disposition": vcardContentDisposition(member.full_name),
    },
  });
}
