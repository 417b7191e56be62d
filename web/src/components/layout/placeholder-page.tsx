import { Construction } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** A titled page for a screen whose content arrives with later work. */
export function PlaceholderPage({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-foreground">{title}</h1>
      {description ? <p className="mt-2 text-muted-foreground">{description}</p> : null}
      <Card className="mt-8 border-dashed">
        <CardHeader className="flex-row items-center gap-3">
          <Construction className="size-5 text-primary" aria-hidden="true" />
          <div>
            <CardTitle className="text-base">Arriving with a later release</CardTitle>
            <CardDescription>This screen is being built. Its full content will appear here soon.</CardDescription>
          </div>
        </CardHeader>
        {children ? <CardContent>{children}</CardContent> : null}
      </Card>
    </section>
  );
}
