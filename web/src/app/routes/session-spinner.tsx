/**
 * The centred full-page spinner of the route tables (session loading, screen chunks loading). Same look as
 * `components/ui/spinner`'s FullPageSpinner, without lucide and tailwind-merge, so the entry chunk stays small.
 */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-screen w-full items-center justify-center bg-background">
      <span role="status" className="inline-flex items-center">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          className="size-10 animate-spin text-primary"
        >
          <path d="M21 12a9 9 0 1 1-6.219-8.56" />
        </svg>
        <span className="sr-only">{label}</span>
      </span>
    </div>
  );
}
