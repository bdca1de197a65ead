/** A dashboard screen: a back link, one heading, then the content. */
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { linkClass } from "./styles";

export function AdminPage({
  title,
  back,
  children,
  actions,
}: {
  title: string;
  back?: { to: string; label: string };
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      {back ? (
        <p className="mb-3">
          <Link to={back.to} className={`${linkClass} inline-flex items-center gap-1`}>
            <ArrowLeft aria-hidden="true" className="size-4" /> {back.label}
          </Link>
        </p>
      ) : null}
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <h1 id="page-title" className="min-w-0 text-3xl font-semibold wrap-anywhere">
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
