/**
 * /privacy: the privacy notice (PIPEDA) linked from the enquiry form: what
 * the form collects, why, who sees it, how long it is kept (the configured
 * ENQUIRY_RETENTION_DAYS) and how to have it deleted at once.
 */
import type { Route } from "./+types/privacy";
import { getEnv } from "~/.server/env";
import { LegalPage } from "~/components/public/legal-page";
import { publicMeta } from "~/components/public/meta";
import { PublicRouteError } from "~/components/public/public-error";
import { FIRM } from "~/config/firm";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. */
export const handle = { pageCache: { params: [] } } satisfies RouteHandle;

export async function loader() {
  return { retentionDays: getEnv().ENQUIRY_RETENTION_DAYS };
}

export function meta({ matches }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: "Privacy Notice",
    description: `How ${FIRM.name} collects, uses, keeps and deletes the personal information sent through its website's enquiry form.`,
    path: "/privacy",
  });
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const days = loaderData.retentionDays;
  const officer = FIRM.privacyOfficer;
  return (
    <LegalPage title="Privacy Notice" intro="How we handle the personal information you send us through this website.">
      <p>
        {FIRM.name} follows Canada&apos;s <em>Personal Information Protection and Electronic Documents Act</em> (PIPEDA). This notice
        explains what happens to the information you give us through the <a href="/contact">enquiry form</a> on this website.
      </p>
      <h2>What we collect</h2>
      <p>
        When you send the enquiry form we keep your name, your e-mail address, your phone number if you give one, the area of law you
        choose, your message, and the time you sent it and agreed to this notice. We do not keep your computer&apos;s internet
        address with your enquiry. To stop automated spam, we keep a scrambled code made from that address for about a day, which
        cannot be turned back into the address.
      </p>
      <h2>Why we collect it</h2>
      <p>
        We use it only to answer your enquiry and to check for conflicts of interest before we can agree to act for you. We do not use
        it for marketing, we do not sell it, and we do not share it outside the firm. The form uses no outside service and sets no
        cookie.
      </p>
      <h2>Who sees it</h2>
      <p>
        The lawyers and staff who handle enquiries read it in the firm&apos;s secure staff dashboard. The e-mail that tells them a new
        enquiry has arrived does not contain your details or your message.
      </p>
      <h2>How long we keep it</h2>
      <p>
        Enquiries are deleted automatically {days} days after they are received. If you become a client, the information you give us
        from then on is kept in your client file under our professional obligations, not under this notice.
      </p>
      <h2>Deleting it sooner, seeing it, correcting it</h2>
      <p>
        You may ask us at any time to delete your enquiry at once, to tell you what we hold about you, or to correct it. Write to our
        Privacy Officer, {officer.name} ({officer.role}), at <a href={`mailto:${officer.email}`}>{officer.email}</a>, or call{" "}
        <a href={`tel:${FIRM.phoneE164}`}>{FIRM.phone}</a>. We will answer within 30 days.
      </p>
      <h2>Please send nothing confidential yet</h2>
      <p>
        Sending an enquiry does not make us your lawyers. Until we have checked for conflicts and agreed in writing to act for you,
        please describe your matter only in general terms. See also our <a href="/disclaimer">disclaimer</a>.
      </p>
      <h2>Concerns</h2>
      <p>
        If you are not satisfied with our answer, you may complain to the Office of the Privacy Commissioner of Canada
        (priv.gc.ca).
      </p>
    </LegalPage>
  );
}

export function ErrorBoundary() {
  return <PublicRouteError />;
}
