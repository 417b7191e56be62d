import { FlaskConical } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { useTestWebhook } from '../api/test-webhook';

const SUCCESS = 'Test Successful';

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** Internal page (spec 2): checks that the enrichment webhook answers, showing its message and result. */
export function TestClayPage() {
  const test = useTestWebhook();

  const run = () =>
    test.mutate(undefined, {
      onSuccess: (answer) =>
        toast({
          variant: answer.message === SUCCESS ? 'default' : 'destructive',
          title: answer.message === SUCCESS ? SUCCESS : 'Test Failed',
          description: answer.message,
        }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Test Failed',
          description: errorText(error, 'The webhook test could not be run'),
        }),
    });

  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-10">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Enrichment Webhook Test</h1>
        <p className="mt-2 text-muted-foreground">
          Sends a test referral to the configured enrichment webhook (ENRICHMENT_WEBHOOK_URL) and shows what it
          answered.
        </p>
      </div>
      <div>
        <Button onClick={run} disabled={test.isPending}>
          {test.isPending ? (
            <Spinner className="size-4 text-current" label="Testing the webhook" />
          ) : (
            <FlaskConical aria-hidden="true" />
          )}
          Test
        </Button>
      </div>
      {test.data ? (
        <Card role="status">
          <CardHeader>
            <CardTitle>{test.data.message}</CardTitle>
            <CardDescription>Result</CardDescription>
          </CardHeader>
          <CardContent>
            <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-sm">
              {asText(test.data.result)}
            </pre>
          </CardContent>
        </Card>
      ) : null}
      {test.error ? (
        <Card role="alert">
          <CardHeader>
            <CardTitle>Test Failed</CardTitle>
            <CardDescription>{errorText(test.error, 'The webhook test could not be run')}</CardDescription>
          </CardHeader>
        </Card>
      ) : null}
    </div>
  );
}
