import { Button } from '@/components/ui/button';

/**
 * A saved profile or bounty set that could not be read (other than "none saved yet"). The spec only logs such
 * failures and starts the form empty; saving that empty form would replace what the workspace had, and
 * change which leads reach it. So the form waits until the read succeeds (docs/product-decisions.md).
 */
export function LoadFailedNotice({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 p-4 text-red-950">
      <p className="font-semibold">Your saved {what} could not be loaded</p>
      <p className="mt-1 text-sm">
        The form opens once they load, so that saving cannot replace them with an empty form.
      </p>
      <Button variant="outline" className="mt-3" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
