import { ArrowLeft } from "lucide-react";

/**
 * The link back to a list from one of its pages (an article, an event): in
 * the page's banner, or at the foot of the page under a rule.
 */
export function BackLink({ href, children, place }: { href: string; children: string; place: "banner" | "foot" }) {
  if (place === "banner") {
    return (
      <a href={href} className="inline-flex items-center gap-2 text-sm font-semibold text-brass-light hover:underline">
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {children}
      </a>
    );
  }
  return (
    <p className="mt-10 border-t border-line pt-8">
      <a href={href} className="inline-flex items-center gap-2 font-semibold text-accent hover:underline">
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {children}
      </a>
    </p>
  );
}
