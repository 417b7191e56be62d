/**
 * Static button classes for the landing page. They mirror `components/ui/button` but skip its Radix Slot,
 * cva and tailwind-merge so the public page's chunk stays small (see README: landing page bundle).
 */
const base =
  'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0';

export const btn = {
  primary: `${base} h-10 px-4 text-sm bg-primary text-primary-foreground shadow-sm hover:bg-primary/90`,
  primaryLg: `${base} h-11 px-6 text-base bg-primary text-primary-foreground shadow-sm hover:bg-primary/90`,
  outline: `${base} h-10 px-4 text-sm border border-border bg-background shadow-sm hover:bg-muted hover:text-foreground`,
  outlineLg: `${base} h-11 px-6 text-base border border-border bg-background shadow-sm hover:bg-muted hover:text-foreground`,
  ghost: `${base} h-10 px-4 text-sm hover:bg-muted hover:text-foreground`,
  icon: `${base} size-10 hover:bg-muted hover:text-foreground`,
};

export const container = 'mx-auto max-w-6xl px-4 sm:px-6';
