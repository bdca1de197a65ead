import type { ReactNode } from "react";
import { PageBanner } from "./page-banner";

/** A static legal page: banner and a readable column of text. */
export function LegalPage({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Legal" title={title} text={intro} />
      <div className="legal-text mx-auto max-w-3xl px-5 py-16 text-lg leading-8 text-ink/90 lg:py-20">{children}</div>
    </main>
  );
}
