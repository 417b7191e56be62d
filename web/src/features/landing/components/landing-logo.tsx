/** The product mark and name (as components/layout/logo), without tailwind-merge: keeps the landing chunk small. */
export function LandingLogo() {
  return (
    <span className="inline-flex items-center gap-2">
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 shrink-0">
        <rect width="32" height="32" rx="8" className="fill-primary" />
        <path
          d="M10 21.5 16 10l6 11.5M12.4 17h7.2"
          fill="none"
          stroke="#fff"
          strokeWidth="2.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="text-lg font-semibold tracking-tight">Referral Hub</span>
    </span>
  );
}
