import type { Route } from "./+types/accessibility";
import { ScrollRegion } from "~/components/scroll-region";
import { LegalPage } from "~/components/public/legal-page";
import { publicMeta } from "~/components/public/meta";
import { PublicRouteError } from "~/components/public/public-error";
import { FIRM, fullAddress } from "~/config/firm";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. Visit statistics count it by its path. */
export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

export function meta({ matches }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: "Accessibility",
    description: `The multi-year accessibility plan of ${FIRM.name} under Ontario's Accessibility for Ontarians with Disabilities Act, 2005 (AODA), and who to contact.`,
    path: "/accessibility",
  });
}

const PLAN: { year: string; area: string; actions: string[] }[] = [
  {
    year: "2025",
    area: "Customer service and feedback",
    actions: [
      "Review the accessible customer service policy, including service animals, support persons and notices of temporary disruption.",
      "Confirm that feedback can be given in person, by telephone, in writing, by e-mail or through this website, and answered in an accessible format.",
    ],
  },
  {
    year: "2025",
    area: "Website and digital documents",
    actions: [
      "Keep this website conformant with the Web Content Accessibility Guidelines (WCAG) 2.0 Level AA, tested with automated tools and by keyboard and screen reader on every release.",
      "Publish client-facing templates (engagement letters, reporting letters) in accessible, tagged formats.",
    ],
  },
  {
    year: "2026",
    area: "Training",
    actions: [
      "Train every lawyer, employee and volunteer on the Integrated Accessibility Standards and the Human Rights Code as it relates to people with disabilities, within 30 days of joining and whenever policies change.",
      "Keep a record of the training given, including dates and the people trained.",
    ],
  },
  {
    year: "2026",
    area: "Employment",
    actions: [
      "Tell applicants that accommodation is available during recruitment, assessment and selection, and consult on suitable accommodation.",
      "Maintain written individual accommodation plans and return-to-work processes, and individualised workplace emergency response information.",
    ],
  },
  {
    year: "2027",
    area: "Procurement",
    actions: [
      "Include accessibility criteria and features when buying goods, services and facilities, including software and court-document platforms, and explain in writing when it is not practicable to do so.",
    ],
  },
  {
    year: "2027–2028",
    area: "Design of public spaces",
    actions: [
      "Apply the Design of Public Spaces Standards to any redevelopment of the reception and meeting areas, including accessible service counters and waiting areas.",
      "Put procedures in place for preventive and emergency maintenance of accessible elements.",
    ],
  },
  {
    year: "2029",
    area: "Review",
    actions: [
      "Review and update this plan in consultation with people with disabilities, publish the updated plan, and report on progress as the AODA requires.",
    ],
  },
];

export default function Accessibility() {
  const contacts = FIRM.accessibilityContacts;
  return (
    <LegalPage
      title="Accessibility"
      intro={`Multi-year accessibility plan of ${FIRM.name}, 2025 to 2029, under the Accessibility for Ontarians with Disabilities Act, 2005.`}
    >
      <h2>Statement of commitment</h2>
      <p>
        {FIRM.name} is committed to treating all people in a way that allows them to maintain their dignity and independence. We
        believe in integration and equal opportunity, and we are committed to meeting the needs of people with disabilities in a
        timely manner by preventing and removing barriers to accessibility and by meeting the requirements of the Accessibility for
        Ontarians with Disabilities Act, 2005 (AODA) and the Integrated Accessibility Standards Regulation (Ontario Regulation
        191/11).
      </p>
      <h2>About this plan</h2>
      <p>
        This plan describes what the firm has done and will do to improve accessibility for clients, visitors, lawyers and staff. It
        is reviewed and updated at least once every five years, and progress is reviewed each year. It is available in an
        accessible format or with communication supports on request, at no cost.
      </p>
      <h2>What we have done</h2>
      <ul>
        <li>Adopted an accessible customer service policy, including the use of service animals and support persons at our office.</li>
        <li>Provided accessibility training to all lawyers and staff, and included it in the onboarding of new team members.</li>
        <li>Built this website to meet WCAG 2.0 Level AA, with keyboard access, text alternatives and sufficient colour contrast.</li>
        <li>Established a feedback process and accommodation procedures for recruitment and employment.</li>
        <li>Prepared individualised workplace emergency response information for employees who need it.</li>
      </ul>
      <h2>Plan of action, 2025 to 2029</h2>
      <ScrollRegion className="overflow-x-auto" label="Plan of action by year">
        <table className="mt-6 w-full border-collapse text-left text-base">
          <caption className="sr-only">Accessibility actions by year</caption>
          <thead>
            <tr className="border-b-2 border-ink">
              <th scope="col" className="py-3 pr-4 align-bottom font-semibold">
                Year
              </th>
              <th scope="col" className="py-3 pr-4 align-bottom font-semibold">
                Area
              </th>
              <th scope="col" className="py-3 align-bottom font-semibold">
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {PLAN.map((row) => (
              <tr key={`${row.year}-${row.area}`} className="border-b border-line align-top">
                <td className="py-4 pr-4 whitespace-nowrap">{row.year}</td>
                <th scope="row" className="py-4 pr-4 font-semibold">
                  {row.area}
                </th>
                <td className="py-4">
                  <ul className="list-disc space-y-2 pl-5">
                    {row.actions.map((action) => (
                      <li key={action}>{action}</li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <h2>Accessible formats and feedback</h2>
      <p>
        To ask for this plan or any other document in an accessible format, to request an accommodation, or to tell us about a
        barrier you encountered, contact either of the people below. You can also write to us at {fullAddress()}, or call the main
        line at <a href={`tel:${FIRM.phoneE164}`}>{FIRM.phone}</a>. We will acknowledge your feedback within two business days.
      </p>
      <ul className="contact-cards">
        {contacts.map((person) => (
          <li key={person.email} className="min-w-0 [overflow-wrap:anywhere]">
            <p className="font-semibold">{person.name}</p>
            <p className="text-muted">{person.role}</p>
            <p>
              <a href={`mailto:${person.email}`}>{person.email}</a>
            </p>
            <p>
              <a href={`tel:${FIRM.phoneE164}`}>{person.phone}</a>
            </p>
          </li>
        ))}
      </ul>
    </LegalPage>
  );
}

export const ErrorBoundary = PublicRouteError;
