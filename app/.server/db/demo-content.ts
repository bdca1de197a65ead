/** Demo content: fictional people and articles, seeded into an empty database. */
import type { BarAdmission, EducationEntry, SupportStaff } from "./schema";

type DemoMember = DemoCredentials & {
  full_name: string;
  title: string;
  email: string;
  extension: number;
  mobile: string;
  desc: string;
  AOP: string[];
  area_details: string[];
  staff: SupportStaff[];
  hue: number;
};

const assistant = (name: string, title: string, ext: string): SupportStaff => ({
  name,
  title,
  extension: ext,
  email: `${name.split(" ")[0].toLowerCase()}.${name.split(" ").at(-1)!.toLowerCase()}@harrowkline.example`,
});

/** A profile's credentials (issue 33). Fictional, like the people: clients are never named. */
type DemoCredentials = {
  admissions: BarAdmission[];
  languages: string[];
  other_languages: string;
  education: EducationEntry[];
  matters: string;
  memberships: string[];
  specialist_area: string;
  specialist_year: number | null;
};

const matters = (...items: string[]) => `<ul>${items.map((t) => `<li>${t}</li>`).join("")}</ul>`;

const CREDENTIALS: Record<string, DemoCredentials> = {
  "Eleanor Whitcombe": {
    admissions: [{ jurisdiction: "Ontario", year: 2003 }],
    languages: ["en", "fr"],
    other_languages: "",
    education: [
      { degree: "J.D.", school: "Osgoode Hall Law School", year: 2002 },
      { degree: "B.A. (Hons.)", school: "Queen's University", year: 1999 },
    ],
    matters: matters(
      "Defended a national property and casualty insurer in a catastrophic-impairment claim valued at $4.2 million; the dismissal was <strong>upheld by the Court of Appeal for Ontario</strong>.",
      "Obtained a declaration of no coverage for a commercial general liability insurer in a multi-party fire loss.",
      "Resolved a subrogated claim of $1.8 million for a property insurer at mediation, three weeks before trial.",
    ),
    memberships: ["Defence Counsel Association of Ontario", "Canadian Defence Lawyers", "Ontario Bar Association"],
    specialist_area: "Civil Litigation",
    specialist_year: 2012,
  },
  "Marcus Adeyemi": {
    admissions: [{ jurisdiction: "Ontario", year: 2006 }],
    languages: ["en"],
    other_languages: "Yoruba",
    education: [
      { degree: "LL.B.", school: "University of Ottawa", year: 2005 },
      { degree: "B.Comm.", school: "Toronto Metropolitan University", year: 2002 },
    ],
    matters: matters(
      "Defended a grocery chain's insurer in a series of occupier's liability claims, all resolved below reserve.",
      "Exposed a staged-collision ring in a fraud defence for an automobile insurer, leading to the dismissal of eleven claims.",
    ),
    memberships: ["Canadian Defence Lawyers", "Ontario Insurance Adjusters Association (associate member)"],
    specialist_area: "",
    specialist_year: null,
  },
  "Sofia Marchetti": {
    admissions: [
      { jurisdiction: "Ontario", year: 2008 },
      { jurisdiction: "British Columbia", year: 2014 },
    ],
    languages: ["en", "it", "fr"],
    other_languages: "",
    education: [
      { degree: "J.D.", school: "University of Toronto", year: 2007 },
      { degree: "B.A.Sc., Civil Engineering", school: "University of Waterloo", year: 2004 },
    ],
    matters: matters(
      "Acted for a general contractor in a $12 million delay and disruption arbitration on a hospital expansion.",
      "Defended a surety against lien and holdback claims on a mid-rise residential project, with every claim vacated.",
    ),
    memberships: ["Canadian College of Construction Lawyers", "Ontario Bar Association, Construction and Infrastructure Law Section"],
    specialist_area: "Construction Law",
    specialist_year: 2017,
  },
  "Rajiv Menon": {
    admissions: [{ jurisdiction: "Ontario", year: 2010 }],
    languages: ["en", "hi"],
    other_languages: "Malayalam",
    education: [
      { degree: "J.D.", school: "University of Toronto", year: 2009 },
      { degree: "B.Sc., Computer Science", school: "University of Waterloo", year: 2006 },
    ],
    matters: matters(
      "Led the response to a ransomware attack on a regional manufacturer: forensics, regulator notices and restoration within nine days.",
      "Defended a payment processor in a proposed privacy class action after a data exfiltration; certification was denied.",
      "Advised a cyber insurer on coverage for a business e-mail compromise loss of $2.3 million.",
    ),
    memberships: ["International Association of Privacy Professionals", "Ontario Bar Association, Privacy and Access Law Section"],
    specialist_area: "",
    specialist_year: null,
  },
  "Catherine Doyle": {
    admissions: [{ jurisdiction: "Ontario", year: 2009 }],
    languages: ["en", "fr"],
    other_languages: "",
    education: [
      { degree: "LL.B.", school: "Western University", year: 2008 },
      { degree: "B.A.", school: "McGill University", year: 2005 },
    ],
    matters: matters(
      "Successfully defended an insurer before the Licence Appeal Tribunal in a disputed catastrophic-impairment determination.",
      "Defended a travel insurer's denial of an out-of-country medical claim through trial.",
    ),
    memberships: ["Defence Counsel Association of Ontario", "Women's Law Association of Ontario"],
    specialist_area: "",
    specialist_year: null,
  },
  "Benjamin Okafor": {
    admissions: [{ jurisdiction: "Ontario", year: 2019 }],
    languages: ["en"],
    other_languages: "Igbo",
    education: [
      { degree: "J.D.", school: "Osgoode Hall Law School", year: 2018 },
      { degree: "B.Eng., Computer Engineering", school: "Toronto Metropolitan University", year: 2012 },
    ],
    matters: matters(
      "Assisted in the defence of a subcontractor's delay claim on a transit station, resolved at mediation.",
      "Coordinated the technical investigation of a business e-mail compromise for a logistics company.",
    ),
    memberships: ["Ontario Bar Association"],
    specialist_area: "",
    specialist_year: null,
  },
  "Amelia Brandt": {
    admissions: [{ jurisdiction: "Ontario", year: 2021 }],
    languages: ["en", "de"],
    other_languages: "",
    education: [{ degree: "J.D.", school: "Queen's University", year: 2020 }],
    matters: matters("Obtained summary judgment dismissing a slip and fall claim against a municipal insured."),
    memberships: ["Defence Counsel Association of Ontario"],
    specialist_area: "",
    specialist_year: null,
  },
  "Hiroshi Tanaka": {
    admissions: [{ jurisdiction: "Ontario", year: 2020 }],
    languages: ["en", "ja"],
    other_languages: "",
    education: [
      { degree: "J.D.", school: "University of Ottawa", year: 2019 },
      { degree: "B.A.", school: "University of British Columbia", year: 2016 },
    ],
    matters: matters(
      "Defended an employer before the Human Rights Tribunal of Ontario after a workplace privacy breach; the application was dismissed.",
    ),
    memberships: ["Ontario Bar Association, Labour and Employment Law Section"],
    specialist_area: "",
    specialist_year: null,
  },
  "Nadia Kowalski": {
    admissions: [],
    languages: ["en", "pl", "uk"],
    other_languages: "",
    education: [{ degree: "Law Clerk Diploma", school: "Seneca Polytechnic", year: 2011 }],
    matters: "",
    memberships: ["Institute of Law Clerks of Ontario"],
    specialist_area: "",
    specialist_year: null,
  },
  "Patrick Lindqvist": {
    admissions: [],
    languages: ["en"],
    other_languages: "Swedish",
    education: [{ degree: "B.Comm.", school: "Toronto Metropolitan University", year: 2010 }],
    matters: "",
    memberships: [],
    specialist_area: "",
    specialist_year: null,
  },
};

const credentials = (name: string): DemoCredentials => CREDENTIALS[name];

export const DEMO_TEAM: DemoMember[] = [
  {
    ...credentials("Eleanor Whitcombe"),
    full_name: "Eleanor Whitcombe",
    title: "Managing Partner",
    email: "ewhitcombe@harrowkline.example",
    extension: 101,
    mobile: "416-555-0190",
    desc: "Eleanor leads the firm and its insurance defence practice. For more than twenty years she has defended insurers and their insureds in complex bodily injury, coverage and subrogation matters before every level of court in Ontario, and she is regularly retained on files where the exposure is significant and the facts are contested.",
    AOP: ["insurance", "construction"],
    area_details: ["Insurance defence", "Coverage issues", "Bodily injury (auto and non-auto)", "Appeals"],
    staff: [assistant("Dana Ruiz", "Legal Assistant", "121"), assistant("Owen Park", "Law Clerk", "122")],
    hue: 215,
  },
  {
    ...credentials("Marcus Adeyemi"),
    full_name: "Marcus Adeyemi",
    title: "Client Services Partner",
    email: "madeyemi@harrowkline.example",
    extension: 102,
    mobile: "",
    desc: "Marcus is the first call for the firm's insurer and corporate clients. He manages reporting, budgets and service standards across the firm's portfolios, and maintains a defence practice focused on property claims, fraud and occupier's liability.",
    AOP: ["insurance"],
    area_details: ["Property claims", "Fraud claims", "Occupier's liability claims", "Slips, trips and falls"],
    staff: [assistant("Lena Fischer", "Legal Assistant", "123")],
    hue: 30,
  },
  {
    ...credentials("Sofia Marchetti"),
    full_name: "Sofia Marchetti",
    title: "Partner",
    email: "smarchetti@harrowkline.example",
    extension: 103,
    mobile: "416-555-0191",
    desc: "Sofia acts for owners, general contractors and sureties in construction disputes, from lien and holdback claims to delay and deficiency litigation and arbitration. She advises on contract risk before a shovel hits the ground.",
    AOP: ["construction"],
    area_details: ["Construction litigation", "Contract law", "Commercial litigation"],
    staff: [assistant("Tom Baxter", "Law Clerk", "124")],
    hue: 150,
  },
  {
    ...credentials("Rajiv Menon"),
    full_name: "Rajiv Menon",
    title: "Partner",
    email: "rmenon@harrowkline.example",
    extension: 104,
    mobile: "416-555-0192",
    desc: "Rajiv leads the cyber security and incident response group. He is on call when a client discovers ransomware, a business e-mail compromise or a data exfiltration, coordinating forensics, notification, regulators and the defence of the claims that follow.",
    AOP: ["cyber", "insurance"],
    area_details: ["Cyber incident response", "Cyber claims", "Cyber law", "Class actions"],
    staff: [assistant("Ivy Chen", "Incident Coordinator", "125"), assistant("Sam Patel", "Legal Assistant", "126")],
    hue: 265,
  },
  {
    ...credentials("Catherine Doyle"),
    full_name: "Catherine Doyle",
    title: "Partner",
    email: "cdoyle@harrowkline.example",
    extension: 105,
    mobile: "",
    desc: "Catherine defends insurers in accident benefits and disability disputes and appears regularly before the Licence Appeal Tribunal. She also handles travel and disability coverage claims.",
    AOP: ["insurance"],
    area_details: ["Accident benefits", "Disability claims", "Travel/disability", "Medical malpractice"],
    staff: [assistant("Grace Holm", "Legal Assistant", "127")],
    hue: 340,
  },
  {
    ...credentials("Benjamin Okafor"),
    full_name: "Benjamin Okafor",
    title: "Associate",
    email: "bokafor@harrowkline.example",
    extension: 106,
    mobile: "416-555-0193",
    desc: "Benjamin's practice spans construction litigation and cyber incident response. Before law school he worked as a network engineer, which his clients find useful when a breach investigation turns technical.",
    AOP: ["construction", "cyber"],
    area_details: ["Construction litigation", "Cyber incident response", "Contract law"],
    staff: [],
    hue: 190,
  },
  {
    ...credentials("Amelia Brandt"),
    full_name: "Amelia Brandt",
    title: "Associate",
    email: "abrandt@harrowkline.example",
    extension: 107,
    mobile: "",
    desc: "Amelia defends insurers and their insureds in bodily injury, dog bite and slip and fall claims, and assists with subrogation recoveries.",
    AOP: ["insurance"],
    area_details: ["Dog bites", "Slips, trips and falls", "Subrogation", "Property damage"],
    staff: [],
    hue: 95,
  },
  {
    ...credentials("Hiroshi Tanaka"),
    full_name: "Hiroshi Tanaka",
    title: "Associate",
    email: "htanaka@harrowkline.example",
    extension: 108,
    mobile: "",
    desc: "Hiroshi advises employers on cyber risk, privacy and employment matters, including wrongful dismissal and human rights claims that follow an incident.",
    AOP: ["cyber"],
    area_details: ["Employment law", "Wrongful dismissal", "Human rights claims", "Cyber law"],
    staff: [],
    hue: 5,
  },
  {
    ...credentials("Nadia Kowalski"),
    full_name: "Nadia Kowalski",
    title: "Senior Law Clerk",
    email: "nkowalski@harrowkline.example",
    extension: 110,
    mobile: "",
    desc: "Nadia supports the insurance and construction groups with productions, discoveries and trial preparation.",
    AOP: ["insurance", "construction"],
    area_details: ["Mass tort litigation"],
    staff: [],
    hue: 45,
  },
  {
    ...credentials("Patrick Lindqvist"),
    full_name: "Patrick Lindqvist",
    title: "Office Manager",
    email: "plindqvist@harrowkline.example",
    extension: 111,
    mobile: "",
    desc: "Patrick keeps the office running, from client intake to the firm's accessibility programme.",
    AOP: [],
    area_details: [],
    staff: [],
    hue: 240,
  },
];

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
