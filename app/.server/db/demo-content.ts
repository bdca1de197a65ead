/** Demo content: fictional people and articles, seeded into an empty database. */
import type { SupportStaff } from "./schema";
import type { TeamCredentialsInput, TeamMemberInput } from "./team";
import DEMO_PEOPLE from "./demo-team.json";

/** A demo member: what a save takes, with the credentials (issue 33); the portrait is made when seeding, in the member's `hue`. */
type DemoMember = Omit<TeamMemberInput, "img"> & TeamCredentialsInput & { hue: number };

/**
 * A person as demo-team.json has them (fictional, like their credentials: clients are never named): support staff
 * without their e-mail (made from the name), representative matters one entry each.
 */
type DemoPerson = Omit<DemoMember, "staff" | "matters"> & { staff: Omit<SupportStaff, "email">[]; matters: string[] };

const assistant = ({ name, title, extension }: Omit<SupportStaff, "email">): SupportStaff => ({
  name,
  title,
  extension,
  email: `${name.split(" ")[0].toLowerCase()}.${name.split(" ").at(-1)!.toLowerCase()}@harrowkline.example`,
});

/** Representative matters as the profile keeps them: a list, or nothing. */
const matters = (items: string[]) => (items.length ? `<ul>${items.map((t) => `<li>${t}</li>`).join("")}</ul>` : "");

export const DEMO_TEAM: DemoMember[] = (DEMO_PEOPLE satisfies DemoPerson[]).map((person) => ({
  ...person,
  staff: person.staff.map(assistant),
  matters: matters(person.matters),
}));

type DemoArticle = { title: string; category: string; news: boolean; priority: boolean; daysAgo: number; copy: string; hue: number };

const p = (...paragraphs: string[]) => paragraphs.map((t) => `<p>${t}</p>`).join("");

export const DEMO_ARTICLES: DemoArticle[] = [
  {
    title: "Firm Expands Cyber Incident Response Team",
    category: "cyber",
    news: true,
    priority: true,
    daysAgo: 2,
    hue: 265,
    copy:
      p(
        "We are pleased to announce that our cyber security and incident response group has grown to meet the demand from insurers and businesses across Ontario.",
        "The group is available around the clock to coordinate breach counsel, forensics and notification.",
      ) + "<h2>What this means for clients</h2><ul><li>Faster first response</li><li>One team from containment to claim</li></ul>",
  },
  {
    title: "Ransomware Payments: Five Questions to Ask Before You Pay",
    category: "cyber",
    news: false,
    priority: false,
    daysAgo: 5,
    hue: 280,
    copy:
      p(
        "Whether to pay a ransom is a business decision with legal consequences. Sanctions, insurance coverage and regulatory notification all bear on it.",
      ) +
      "<ol><li>Who is the threat actor?</li><li>Is the payment lawful?</li><li>What does the policy cover?</li><li>Can backups restore operations?</li><li>Who must be notified?</li></ol>",
  },
  {
    title: "Court of Appeal Clarifies Occupiers' Duty in Winter Slip Claims",
    category: "insurance",
    news: true,
    priority: false,
    daysAgo: 8,
    hue: 210,
    copy: p(
      "A recent appellate decision confirms that the standard of care for winter maintenance is reasonableness, not perfection.",
      "Insurers should review their maintenance-contractor indemnities in light of the ruling.",
    ),
  },
  {
    title: "Prompt Payment and Adjudication: Two Years of Decisions",
    category: "construction",
    news: false,
    priority: false,
    daysAgo: 11,
    hue: 150,
    copy: p(
      "Ontario's adjudication regime has changed how payment disputes on construction projects are fought.",
      "<strong>Key lesson:</strong> documentation delivered with the notice of adjudication often decides the outcome.",
    ),
  },
  {
    title: "Annual Insurance Defence Seminar: Registration Open",
    category: "events",
    news: true,
    priority: true,
    daysAgo: 13,
    hue: 20,
    copy: p(
      "Join our insurance defence group for a half-day seminar on accident benefits, coverage and the year's most important decisions.",
      "The seminar qualifies for professionalism hours.",
    ),
  },
  {
    title: "Business E-mail Compromise: The First 48 Hours",
    category: "cyber",
    news: false,
    priority: false,
    daysAgo: 17,
    hue: 300,
    copy:
      p(
        "Most business e-mail compromises are discovered when a payment goes astray. What happens next determines whether funds can be recovered.",
      ) + "<blockquote>Call your bank first, then your breach counsel.</blockquote>",
  },
  {
    title: "Subrogation After a Condominium Water Loss",
    category: "insurance",
    news: false,
    priority: false,
    daysAgo: 20,
    hue: 200,
    copy: p(
      "Water losses in condominiums raise questions about the corporation's declaration, the unit owner's policy and the insurer's right of recovery.",
    ),
  },
  {
    title: "Delay Claims: Proving Critical Path Impact",
    category: "construction",
    news: false,
    priority: false,
    daysAgo: 24,
    hue: 130,
    copy: p("A delay claim succeeds or fails on its schedule analysis. Contemporaneous records remain the best evidence."),
  },
  {
    title: "Partner Sofia Marchetti Named to Construction Law Section Executive",
    category: "construction",
    news: true,
    priority: false,
    daysAgo: 28,
    hue: 160,
    copy: p("We congratulate Sofia Marchetti on her appointment to the executive of the provincial construction law section."),
  },
  {
    title: "Breakfast Briefing: Privacy Class Actions After a Breach",
    category: "events",
    news: false,
    priority: false,
    daysAgo: 33,
    hue: 40,
    copy: p(
      "Our cyber group hosts a breakfast briefing on certification trends in privacy class actions and what defendants can do early.",
    ),
  },
  {
    title: "Accident Benefits: Catastrophic Impairment Update",
    category: "insurance",
    news: false,
    priority: false,
    daysAgo: 38,
    hue: 220,
    copy: p("Recent tribunal decisions continue to refine how catastrophic impairment is assessed under the Schedule."),
  },
  {
    title: "Lien Rights and Holdback: A Practical Checklist for Owners",
    category: "construction",
    news: false,
    priority: false,
    daysAgo: 44,
    hue: 120,
    copy:
      p("Owners who manage holdback carefully avoid paying twice.") +
      "<ul><li>Track substantial performance</li><li>Publish certificates promptly</li><li>Keep holdback separate</li></ul>",
  },
  {
    title: "Firm Welcomes Two New Associates",
    category: "insurance",
    news: true,
    priority: false,
    daysAgo: 50,
    hue: 235,
    copy: p(
      "Benjamin Okafor and Amelia Brandt have joined the firm as associates in our insurance defence, construction and cyber groups.",
    ),
  },
  {
    title: "Tabletop Exercises That Actually Prepare Your Team",
    category: "cyber",
    news: false,
    priority: false,
    daysAgo: 57,
    hue: 250,
    copy: p("A tabletop exercise is only useful if it tests decisions people will really have to make, under privilege."),
  },
  {
    title: "Webinar: Coverage Issues in Cyber Policies",
    category: "events",
    news: false,
    priority: false,
    daysAgo: 64,
    hue: 60,
    copy: p("A one-hour webinar on war exclusions, betterment and the interplay between cyber and commercial general liability policies."),
  },
  {
    title: "Fraud Indicators in Staged Collision Claims",
    category: "insurance",
    news: false,
    priority: false,
    daysAgo: 72,
    hue: 190,
    copy: p("Staged collisions leave patterns in medical, repair and witness evidence. Early investigation pays."),
  },
];

export const DEMO_HEADERS: Record<string, string> = {
  team: "Our lawyers and staff combine courtroom experience with practical judgment, for insurers, builders and businesses across Ontario.",
  news: "Decisions, developments and events from our insurance defence, construction and cyber practices.",
  insurance: "Defending insurers and their insureds with rigour, from the first report to the last appeal.",
  construction: "Resolving construction disputes on the schedule your project needs.",
  cyber: "Breach counsel when minutes matter, and defence of the claims that follow.",
};

/** A demo event (issue 45): dates relative to the seeding day, at a wall-clock time in the firm's zone; speakers by name. */
export type DemoEvent = {
  title: string;
  summary: string;
  copy: string;
  daysFromNow: number;
  /** "12:00": the start in the firm's zone. */
  at: string;
  minutes: number;
  format: "in-person" | "webinar" | "hybrid";
  practice_area: "insurance" | "construction" | "cyber";
  venue?: { name: string; street: string; city: string; region: string; postal_code: string };
  webinar_url?: string;
  capacity: number | null;
  speakers: string[];
  guests?: { name: string; organisation: string }[];
  cpd_substantive_minutes: number;
  cpd_professionalism_minutes: number;
  accreditation_number?: string;
  accreditation_date?: string;
  recording_url?: string;
};

const FIRM_VENUE = {
  name: "Harrow Kline LLP, Boardroom",
  street: "100 Wellington Street West, Suite 2100",
  city: "Toronto",
  region: "ON",
  postal_code: "M5K 1A1",
};

export const DEMO_EVENTS: DemoEvent[] = [
  {
    title: "Ransomware Claims in 2027: What Insurers Should Expect",
    summary:
      "A one-hour webinar for claims teams on the first 72 hours of a ransomware incident, coverage positions and the class actions that follow.",
    copy: "<p>Ransomware remains the costliest cyber loss for Ontario businesses. Our cyber group walks through a file from the first call to the defence of the claims that follow.</p><ul><li>The first 72 hours: forensics, privilege and notification</li><li>Coverage questions insurers are raising now</li><li>Privacy class actions after an exfiltration</li></ul>",
    daysFromNow: 21,
    at: "12:00",
    minutes: 60,
    format: "webinar",
    practice_area: "cyber",
    webinar_url: "https://meet.example.com/harrowkline/ransomware-2027",
    capacity: null,
    speakers: ["Rajiv Menon", "Benjamin Okafor"],
    cpd_substantive_minutes: 60,
    cpd_professionalism_minutes: 0,
  },
  {
    title: "Delay Claims Breakfast Seminar",
    summary: "A small-group breakfast seminar on proving and defending delay and disruption claims on Ontario construction projects.",
    copy: "<p>Join us for breakfast and a practical session on delay claims: schedules as evidence, concurrent delay, and the prompt payment regime's adjudication.</p>",
    daysFromNow: 35,
    at: "08:30",
    minutes: 120,
    format: "in-person",
    practice_area: "construction",
    venue: FIRM_VENUE,
    capacity: 12,
    speakers: ["Sofia Marchetti"],
    guests: [{ name: "Alex Moreau, P.Eng.", organisation: "Moreau Scheduling Consultants" }],
    cpd_substantive_minutes: 90,
    cpd_professionalism_minutes: 30,
    accreditation_number: "CPD-2027-0142",
    accreditation_date: "2026-11-20",
  },
  {
    title: "Ethics of Defence Reporting to Insurers",
    summary: "Our annual program on the tripartite relationship: reporting to the insurer while acting for the insured.",
    copy: "<p>Defence counsel retained by an insurer owe duties to the insured. This program works through reporting, confidentiality and conflicts with examples from real files.</p>",
    daysFromNow: -45,
    at: "12:00",
    minutes: 90,
    format: "hybrid",
    practice_area: "insurance",
    venue: FIRM_VENUE,
    webinar_url: "https://meet.example.com/harrowkline/defence-ethics",
    capacity: 40,
    speakers: ["Eleanor Whitcombe", "Catherine Doyle"],
    cpd_substantive_minutes: 30,
    cpd_professionalism_minutes: 60,
    accreditation_number: "CPD-2026-0907",
    accreditation_date: "2026-09-01",
    recording_url: "https://video.example.com/harrowkline/defence-ethics-recording",
  },
];

/** The past demo event's registrants (fictional; example.com addresses): registered, and one who cancelled. Staff mark who attended. */
export const DEMO_REGISTRANTS: {
  name: string;
  email: string;
  organisation: string;
  job_title: string;
  status: "registered" | "cancelled";
}[] = [
  {
    name: "Avery Thompson",
    email: "avery.thompson@northshore-insurance.example",
    organisation: "Northshore Insurance",
    job_title: "Claims Manager",
    status: "registered",
  },
  {
    name: "Jordan Lefebvre",
    email: "jordan.lefebvre@lefebvre-law.example",
    organisation: "Lefebvre Law",
    job_title: "Associate",
    status: "registered",
  },
  {
    name: "Samira Haddad",
    email: "samira.haddad@granite-mutual.example",
    organisation: "Granite Mutual",
    job_title: "Senior Adjuster",
    status: "registered",
  },
  {
    name: "Daniel Okafor",
    email: "daniel.okafor@okafor-chen.example",
    organisation: "Okafor Chen LLP",
    job_title: "Partner",
    status: "registered",
  },
  {
    name: "Chloé Tremblay",
    email: "chloe.tremblay@laurentian-re.example",
    organisation: "Laurentian Re",
    job_title: "Counsel",
    status: "cancelled",
  },
  {
    name: "Wei Zhang",
    email: "wei.zhang@harbourfront-builders.example",
    organisation: "Harbourfront Builders",
    job_title: "In-house Counsel",
    status: "registered",
  },
];
