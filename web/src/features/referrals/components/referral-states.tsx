import { AlertCircle, ArrowLeft } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';

/** A centred card for the states of the referral screens (invalid, not found, not ready, failed). */
export function StateCard({
  icon,
  title,
  focusTitle = false,
  children,
}: {
  icon?: ReactNode;
  title: string;
  /** The card replaced what the user was acting on (a sent email): its title takes the focus, and is read. */
  focusTitle?: boolean;
  children?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusTitle) heading.current?.focus();
  }, [focusTitle]);
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-16">
      <Card>
        <CardContent className="grid justify-items-center gap-4 pt-6 text-center">
          {icon ?? <AlertCircle className="size-10 text-destructive" aria-hidden="true" />}
          <h1 ref={heading} tabIndex={focusTitle ? -1 : undefined} className="text-2xl font-bold outline-none">
            {title}
          </h1>
          {children}
        </CardContent>
      </Card>
    </section>
  );
}

export function InvalidReferral() {
  return (
    <StateCard title="Invalid Referral">
      <p className="text-muted-foreground">This referral link is not valid: a referral id is a number.</p>
      <GoBackButton />
    </StateCard>
  );
}

/** Back in the history, or to the dashboard when this page was the first one opened. */
export function GoBackButton() {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Button variant="outline" onClick={() => (location.key === 'default' ? navigate(paths.dashboard) : navigate(-1))}>
      <ArrowLeft aria-hidden="true" />
      Go Back
    </Button>
  );
}
