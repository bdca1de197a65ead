import type { Route } from "./+types/disclaimer";
import { LegalPage } from "~/components/public/legal-page";
import { publicMeta } from "~/components/public/meta";
import { PublicRouteError } from "~/components/public/public-error";
import { FIRM } from "~/config/firm";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. Visit statistics count it by its path. */
export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

export function meta({ matches }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: "Disclaimer",
    description: `The content of the ${FIRM.name} website is general information, not legal advice, and does not create a lawyer-client relationship.`,
    path: "/disclaimer",
  });
}

export default function Disclaimer() {
  return (
    <LegalPage title="Disclaimer" intro="Please read this notice before relying on anything published on this website.">
      <h2>Not legal advice</h2>
      <p>
        The content of this website, including articles, news and descriptions of our practice areas, is provided for general
        information only. It is not legal advice and should not be relied on as such. The law changes, and its application depends on
        the particular facts of each situation. You should obtain advice from a qualified lawyer about your specific circumstances
        before acting, or refraining from acting, on anything you read here.
      </p>
      <h2>No lawyer-client relationship</h2>
      <p>
        Using this website, reading its content, or contacting {FIRM.name} or any of its lawyers by telephone, e-mail or otherwise
        does not create a lawyer-client relationship. A lawyer-client relationship with the firm arises only once we have confirmed
        that we have no conflict of interest and have agreed in writing to act for you.
      </p>
      <h2>Confidential information</h2>
      <p>
        Until we have agreed to act for you, please do not send us confidential or time-sensitive information. Information you send
        before then may not be treated as privileged or confidential, and sending it does not oblige the firm to act for you or
        prevent it from acting for another party in the same matter.
      </p>
      <h2>Accuracy and links</h2>
      <p>
        We take care to keep this website accurate, but we make no representation or warranty that its content is complete or
        current, and we accept no liability for any loss arising from reliance on it. Links to other websites are provided for
        convenience; we do not control and are not responsible for their content.
      </p>
      <h2>Results</h2>
      <p>
        References to past matters or outcomes do not guarantee a similar result in any other matter. Every case turns on its own
        facts.
      </p>
      <p>
        {FIRM.name} is a law firm in Toronto, Ontario. Its lawyers are licensed by the Law Society of Ontario.
      </p>
    </LegalPage>
  );
}

export const ErrorBoundary = PublicRouteError;
