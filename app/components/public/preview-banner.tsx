/** The strip over a preview of an item the public cannot see (app/.server/content/preview.ts). */
export function PreviewBanner({ text }: { text: string }) {
  return (
    <p role="status" className="sticky top-0 z-40 bg-brass-light px-5 py-2 text-center font-semibold text-ink" data-preview-banner>
      {text}
    </p>
  );
}
