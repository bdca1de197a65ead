import { FIRM } from "~/config/firm";

/** A complete, friendly error page (used by the root and route error boundaries). */
export function ErrorPage({ status, title, message, stack }: { status: number; title: string; message: string; stack?: string }) {
  return (
    <main id="main" className="mx-auto flex min-h-[60vh] max-w-2xl flex-col justify-center px-6 py-24">
      <p className="text-sm font-semibold tracking-widest text-brass uppercase">Error {status}</p>
      <h1 className="mt-2 text-4xl font-semibold">{title}</h1>
      <p className="mt-4 text-lg text-muted">{message}</p>
      <p className="mt-8 flex flex-wrap gap-4">
        <a className="rounded bg-accent px-5 py-3 font-semibold text-white hover:bg-accent-dark" href="/">
          Go to the home page
        </a>
        <a className="px-5 py-3 font-semibold text-accent underline" href={`tel:${FIRM.phoneE164}`}>
          Call {FIRM.phone}
        </a>
      </p>
      {stack ? <pre className="mt-8 overflow-auto rounded bg-soft p-4 text-xs">{stack}</pre> : null}
    </main>
  );
}
