/** Loading and empty states with the spec's exact texts, announced politely. */
export function StatusMessage({ children, className = "" }: { children: string; className?: string }) {
  return (
    <p role="status" className={`py-16 text-center text-lg text-muted ${className}`}>
      {children}
    </p>
  );
}

export const EMPTY_ARTICLES = "Coming soon. Please check back shortly.";
export const EMPTY_TEAM = "no team members to display";
