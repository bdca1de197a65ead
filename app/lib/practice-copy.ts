import type { PracticeArea } from "~/lib/practice";

/** The fixed Overview text of each practice page (SPEC §9). */
export const PRACTICE_COPY: Record<
  PracticeArea,
  { lead: string; paragraphs: string[]; services: string[]; help: string; image: { src: string; alt: string } }
> = {
  insurance: {
    lead: "We defend insurers, self-insured organisations and their insureds with the rigour a contested file deserves and the judgment to know when it should settle.",
    paragraphs: [
      "Our insurance defence group acts on bodily injury, property and liability claims from the first report through trial and appeal. We give an early, candid assessment of liability and damages, set a litigation plan and a budget that holds, and report in a way that supports reserving and settlement authority decisions.",
      "Adjusters and claims managers work with the same lawyers from intake to resolution. We know the tribunals, the experts and the plaintiff bar in Ontario, and we use that knowledge to move files forward rather than let them age.",
    ],
    services: [
      "Auto and non-auto bodily injury, including catastrophic claims",
      "Accident benefits disputes before the Licence Appeal Tribunal",
      "Occupiers' liability, slip and fall, and dog bite claims",
      "Coverage opinions, denials and priority disputes",
      "Subrogation and property damage recoveries",
      "Fraud investigations and staged-loss defence",
    ],
    help: "Whether you need an opinion on coverage, a defence on a newly served claim or a fresh look at a file that has stalled, we will tell you early what it is worth and how we intend to resolve it.",
    image: { src: "/practice-insurance.svg", alt: "Abstract illustration of overlapping shields in navy and brass" },
  },
  construction: {
    lead: "Construction disputes are won on the documents and lost on delay. We help owners, contractors, subcontractors and sureties resolve them on a schedule the project can live with.",
    paragraphs: [
      "We act on lien and holdback claims, delay and disruption, deficiencies and payment disputes, in court, in arbitration and in adjudication under Ontario's prompt payment regime. Our lawyers read schedules and contracts as carefully as pleadings, and we work closely with the engineers, quantity surveyors and delay experts whose evidence usually decides the case.",
      "Much of our best work happens before a dispute hardens: reviewing contract risk before tender, advising on notices as problems arise, and preserving the records that will matter if the job ends in litigation.",
    ],
    services: [
      "Construction Act lien, holdback and trust claims",
      "Prompt payment and adjudication",
      "Delay, disruption and critical path claims",
      "Deficiency and defective work litigation",
      "Surety and performance bond disputes",
      "Contract review and risk allocation before tender",
    ],
    help: "If a payment has stopped, a notice deadline is approaching or a claim has been threatened, call us before positions harden. A short conversation now often saves a long proceeding later.",
    image: { src: "/practice-construction.svg", alt: "Abstract illustration of a building frame and grid lines in navy and brass" },
  },
  cyber: {
    lead: "When a ransomware note appears or a payment goes astray, the first hours shape everything that follows. We act as breach counsel from the first call and defend the claims that come after.",
    paragraphs: [
      "Our cyber security and incident response group coordinates the response under privilege: engaging forensic investigators and negotiators, advising on containment and on any ransom decision, meeting notification duties to regulators, affected individuals and counterparties, and managing communications with insurers.",
      "When the incident is over, we defend the regulatory investigations, privacy class actions and commercial claims that follow, and help clients strengthen their contracts, policies and response plans so the next incident is smaller.",
    ],
    services: [
      "24/7 breach coaching and incident response under privilege",
      "Ransomware, extortion and business e-mail compromise",
      "Privacy breach notification and regulator engagement",
      "Defence of privacy class actions and third-party claims",
      "Cyber insurance coverage advice",
      "Incident response plans and tabletop exercises",
    ],
    help: "If you are dealing with an incident now, call the main line and ask for the cyber response team. If you are preparing for one, we can review your response plan and run an exercise with your leadership.",
    image: { src: "/practice-cyber.svg", alt: "Abstract illustration of a network of connected nodes in navy and brass" },
  },
};
