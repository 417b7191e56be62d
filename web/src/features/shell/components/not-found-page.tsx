import { AlertCircle, Home } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';

/** An unknown signed-in path (spec 2), said for a user, with the way home (issue 12). */
export function NotFoundPage() {
  return (
    <div className="flex w-full flex-1 items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4 pt-6">
          <div className="flex items-center gap-2">
            <AlertCircle className="size-8 shrink-0 text-destructive" aria-hidden="true" />
            <h1 className="text-2xl font-bold text-foreground">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">
            This page doesn't exist or has moved. Check the address, or start again from the home screen.
          </p>
          <Button asChild className="justify-self-start">
            <Link to={paths.home}>
              <Home aria-hidden="true" />
              Go to Home
            </Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
