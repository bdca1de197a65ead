/** /dashboard: the four cards. */
import { Clock, FileText, Heading, Users } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { requireStaff } from "~/.server/auth";
import { AdminPage } from "~/components/admin/admin-page";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  return null;
}

const CARDS = [
  { to: "/dashboard/lawyers", title: "Manage Team", text: "Add, edit or remove team members.", Icon: Users },
  { to: "/dashboard/articles", title: "Manage Articles", text: "Write, edit or remove news and insights.", Icon: FileText },
  { to: "/dashboard/hours/edit", title: "Update Office Hours", text: "The opening hours shown on the home page.", Icon: Clock },
  { to: "/dashboard/headers/edit", title: "Update Page Headers", text: "The text under each page banner.", Icon: Heading },
];

export default function Dashboard() {
  return (
    <AdminPage title="Dashboard">
      <ul className="grid gap-4 sm:grid-cols-2">
        {CARDS.map(({ to, title, text, Icon }) => (
          <li key={to}>
            <Link to={to} className="flex h-full items-start gap-4 rounded border border-line bg-white p-5 shadow-sm hover:border-accent hover:shadow">
              <Icon aria-hidden="true" className="mt-1 size-7 shrink-0 text-accent" />
              <span>
                <span className="block font-serif text-xl font-semibold text-ink">{title}</span>
                <span className="mt-1 block text-muted">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </AdminPage>
  );
}
