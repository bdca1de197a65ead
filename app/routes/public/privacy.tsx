/**
 * /privacy: the privacy notice (PIPEDA) linked from the enquiry form: what
 * the form collects, why, who sees it, how long it is kept (the configured
 * ENQUIRY_RETENTION_DAYS) and how to have it deleted at once; and, in its
 * own section (#statistics), what the site's visit statistics count and keep
 * (STATS_RAW_DAYS, STATS_ROLLUP_DAYS; decision 0023); (#map) that Google's map loads only when
 * asked (issue 43); and (#subscriptions) what an insight subscription keeps, why and for how long
 * (issue 31, CASL).
 */
import type { Route } from "./+types/privacy";
import { getEnv } from "~/.server/env";
import { LegalPage } from "~/components/public/legal-page";
import { publicMeta } from "~/components/public/meta";
import { PublicRouteError } from "~/components/public/public-error";
import { FIRM } from "~/config/firm";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. Visit statistics count it by its path. */
export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

export function loader() {
  const env = getEnv();
  return {
    retentionDays: env.ENQUIRY_RETENTION_DAYS,
    statsRawDays: env.STATS_RAW_DAYS,
    statsRollupMonths: Math.round(env.STATS_ROLLUP_DAYS / 30.4),
  };
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
      <h2 id="statistics">Visit statistics</h2>
      <p>
        To learn which pages are read, this website counts visits itself. It uses no cookie, stores nothing in your browser, and sends
        nothing to any other company or website: no advertising or analytics service is involved.
      </p>
      <ul>
        <li>
          <strong>What is counted:</strong> the pages shown and how long each was on screen; the website you came from (its name only,
          search engines by their name) and a campaign tag in the link if there was one; the kind of device (computer, phone or tablet)
          and the browser&apos;s family; words typed into this site&apos;s search box; use of a telephone, e-mail, contact-card or PDF
          link; and whether an enquiry was sent, with the page your visit began on.
        </li>
        <li>
          <strong>Pages, not addresses:</strong> a page is counted by its name on this site, never by a link made for you. The link
          that confirms a subscription or opens your preferences holds a code that is yours alone: it is counted only as &ldquo;a
          confirmation link&rdquo;, without the code. An address that is not a page of this site is counted only as &ldquo;page not
          found&rdquo;, without the address. Of the websites visitors came from, the campaign tags and the words searched, only the
          most frequent of each day are kept by name.
        </li>
        <li>
          <strong>How a visit is told apart:</strong> from a scrambled code made of your internet address, your browser&apos;s
          description and a secret that changes every day. The secret is deleted after two days, so the code cannot be linked to you, to
          your address, or to your visits on other days. Your internet address and browser description are never stored.
        </li>
        <li>
          <strong>How long it is kept:</strong> the individual page views for {loaderData.statsRawDays} days; after that only totals per
          hour and per day (such as &ldquo;120 views of this page on March 3&rdquo;), which contain nothing about any person, for{" "}
          {loaderData.statsRollupMonths} months.
        </li>
        <li>
          <strong>Not counted:</strong> browsers that send the{" "}
          <a href="https://globalprivacycontrol.org/">Global Privacy Control</a> signal (they send us nothing at all), browsers with
          JavaScript turned off or that block the count, search-engine robots, pages your browser loaded in advance but did not show,
          and the firm&apos;s staff.
        </li>
      </ul>
      <h2 id="map">The map on our home page</h2>
      <p>
        The home page shows a plan of the streets around our office that this website drew and serves itself. Loading it sends
        nothing to anyone else. Google&apos;s map is loaded only if you press &ldquo;Show the map&rdquo; (or follow the link to
        Google Maps). Only then does your browser connect to Google, which receives your internet address and your browser&apos;s
        description, and handles them under its own privacy policy. No page of this website asks any other website for anything
        until you do.
      </p>
      <h2 id="subscriptions">Insights by e-mail</h2>
      <p>
        When you <a href="/subscribe">subscribe to our insights</a>, we send you e-mail only after you confirm, through the link in a
        first message, and only on the topics you chose.
      </p>
      <ul>
        <li>
          <strong>What we keep:</strong> your e-mail address, the topics you chose, whether you have confirmed, and a record of your
          consent: the exact words you agreed to and their version, the address of the form, how you subscribed (the web form, or a
          list we imported and asked you to confirm), and the time of each request, confirmation, change and withdrawal. We do not keep
          your internet address with it.
        </li>
        <li>
          <strong>Why:</strong> to send you what you asked for, and to be able to prove your consent, as Canada&apos;s anti-spam law
          (CASL) requires. We use no outside mailing service and put no tracking pixel in our messages.
        </li>
        <li>
          <strong>Unsubscribing:</strong> every message has a link to change your topics or unsubscribe, and your e-mail program&apos;s
          own unsubscribe button works too. It takes effect at once. Your address then stays marked as unsubscribed, so that it is
          never sent anything again.
        </li>
        <li>
          <strong>How long:</strong> while you are subscribed; a request never confirmed is deleted after 30 days. After you
          unsubscribe (or your address stops accepting mail), the record of your consent is kept for three years as proof, then
          deleted. You may ask our Privacy Officer to erase it sooner: we then keep only a scrambled code made from your address, which
          cannot be turned back into it, so that we never write to you again.
        </li>
      </ul>
      <h2>Concerns</h2>
      <p>
        If you are not satisfied with our answer, you may complain to the Office of the Privacy Commissioner of Canada
        (priv.gc.ca).
      </p>
    </LegalPage>
  );
}

export const ErrorBoundary = PublicRouteError;
