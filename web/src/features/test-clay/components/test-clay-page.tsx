import { FlaskConical } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import type { TestWebhookSummary } from '@app/contracts';
import { useTestWebhook } from '../api/test-webhook';

const SUCCESS = 'Test Successful';

/** What came back, in words: "3 fields: received, rows, id", "No fields". */
function fieldsText(result: TestWebhookSummary): string {
  if (result.fieldCount === 0) return 'No fields';
  const more = result.fieldCount > result.fields.length ? `, and ${result.fieldCount - result.fields.length} more` : '';
  return `${result.fieldCount} ${result.fieldCount === 1 ? 'field' : 'fields'}: ${result.fields.join(', ')}${more}`;
}

/** The summary the service answers (never the webhook's body): status, time, fields. */
function Summary({ result }: { result: TestWebhookSummary }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
      <dt className="font-medium">Status</dt>
      <dd>{result.status === null ? 'No answer' : `HTTP ${result.status}`}</dd>
      <dt className="font-medium">Time</dt>
      <dd>{result.durationMs} ms</dd>
      <dt className="font-medium">Fields returned</dt>
      <dd className="wrap-anywhere">{fieldsText(result)}</dd>
      {result.error ? (
        <>
          <dt className="font-medium">Error</dt>
          <dd>{result.error}</dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * Internal page (spec 2; administrators, issue 11): checks that the enrichment webhook answers, showing the
 * message and a summary of the result (status, time, the fields that came back; never their values).
 */
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
          Sends a test payload to the configured enrichment webhook (ENRICHMENT_WEBHOOK_URL) and shows how it answered:
          the status, the time it took and the fields that came back.
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
            {test.data.result ? (
              <Summary result={test.data.result} />
            ) : (
              <p className="text-sm">
                Set ENRICHMENT_WEBHOOK_URL and ENRICHMENT_WEBHOOK_SECRET to post new referrals to it.
              </p>
            )}
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
