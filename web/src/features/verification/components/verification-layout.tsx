import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo, PRODUCT_NAME } from '@/components/layout/logo';
import { paths } from '@/config/paths';

/** The plain frame of the public verification screens: logo, centred content, footer. */
export function VerificationLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-muted/60">
      <header className="mx-auto flex w-full max-w-5xl items-center px-4 py-5 sm:px-6">
        <Link to={paths.home} aria-label="Home" className="rounded-md">
          <Logo />
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-6 pb-16 sm:pt-16">{children}</main>
      <footer className="border-t border-border bg-background py-6 text-center text-sm text-muted-foreground">
        <p>
          Need help? Check your spam folder or{' '}
          <Link to={paths.demoRequest} className="text-primary underline underline-offset-4">
            contact us
          </Link>
          .
        </p>
        <p className="mt-1">
          © {new Date().getFullYear()} {PRODUCT_NAME}
        </p>
      </footer>
    </div>
  );
}
