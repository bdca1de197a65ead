/** The picture of a dashboard screen's home card, named in its route's `handle` (lib/route-handle.ts `nav.icon`). */
import {
  ArrowRightLeft,
  CalendarDays,
  ChartLine,
  Clock,
  FileText,
  Heading,
  History,
  Import,
  Inbox,
  type LucideIcon,
  Mail,
  Newspaper,
  ShieldCheck,
  TriangleAlert,
  Trash2,
  UserCog,
  Users,
} from "lucide-react";
import type { ScreenIcon as Name } from "~/lib/route-handle";

const ICONS: Record<Name, LucideIcon> = {
  team: Users,
  articles: FileText,
  events: CalendarDays,
  trash: Trash2,
  hours: Clock,
  headers: Heading,
  enquiries: Inbox,
  subscribers: Newspaper,
  statistics: ChartLine,
  redirects: ArrowRightLeft,
  import: Import,
  staff: UserCog,
  activity: History,
  outbox: Mail,
  jobs: TriangleAlert,
  account: ShieldCheck,
};

export function ScreenIcon({ name, className }: { name: Name; className?: string }) {
  const Icon = ICONS[name];
  return <Icon aria-hidden="true" className={className} />;
}
