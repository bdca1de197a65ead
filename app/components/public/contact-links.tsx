import { Mail, MapPin, Phone, Printer } from "lucide-react";
import { FIRM, fullAddress } from "~/config/firm";

const LINK = "font-semibold text-accent underline-offset-4 hover:underline";

/**
 * The firm's address, phone, (fax) and e-mail as a list of contact links
 * (SPEC §2: phone, fax and e-mail shown as contact links): the home page's
 * contact section and /contact.
 */
export function ContactLinks({ fax = false, className = "" }: { fax?: boolean; className?: string }) {
  return (
    <ul className={`space-y-5 text-lg ${className}`}>
      <li className="flex gap-4">
        <MapPin aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-accent" />
        <address className="not-italic">{fullAddress()}</address>
      </li>
      <li className="flex gap-4">
        <Phone aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-accent" />
        <span>
          <span className="text-muted">Phone </span>
          <a className={LINK} href={`tel:${FIRM.phoneE164}`}>
            {FIRM.phone}
          </a>
        </span>
      </li>
      {fax ? (
        <li className="flex gap-4">
          <Printer aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-accent" />
          <span>
            <span className="text-muted">Fax </span>
            <a className={LINK} href={`tel:+1${FIRM.fax.replace(/\D/g, "")}`}>
              {FIRM.fax}
            </a>
          </span>
        </li>
      ) : null}
      <li className="flex gap-4">
        <Mail aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-accent" />
        <span>
          <span className="text-muted">E-mail </span>
          <a className={`${LINK} break-all`} href={`mailto:${FIRM.email}`}>
            {FIRM.email}
          </a>
        </span>
      </li>
    </ul>
  );
}
