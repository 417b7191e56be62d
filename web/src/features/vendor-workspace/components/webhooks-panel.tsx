import {
  CreateWebhookRequest,
  ERRORS,
  WEBHOOK_EVENTS,
  type ErrorCode,
  type Vendor,
  type WebhookEndpoint,
} from '@app/contracts';
import { Copy, Loader2, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { Form, FormControl, FormInput } from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { errorText } from '@/lib/errors';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useSendTestWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from '../api/vendor-money';

const CODES: ErrorCode[] = [
  'NOT_AN_OWNER',
  'WEBHOOK_URL_PRIVATE',
  'WEBHOOK_URL_UNRESOLVABLE',
  'WEBHOOK_LIMIT',
  'WEBHOOK_NOT_FOUND',
];
const refusalText = (error: unknown, fallback: string) => {
  const code = CODES.find((c) => isApiError(error, c));
  return code ? ERRORS[code].message : errorText(error, fallback);
};

const EVENT_TEXT: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  'lead.created': 'A lead arrives',
  'lead.status_changed': 'A lead changes stage (accepted, declined, milestone confirmed, reversed)',
  'commission.created': 'A commission is created',
};

/**
 * Webhooks (issue 10): the workspace's CRM endpoints. Owners add and delete them; every member sees them,
 * their deliveries, and can send a test event. The signing secret is shown once, right after creation.
 */
export function WebhooksPanel({ vendor }: { vendor: Vendor }) {
  const owner = vendor.role === 'owner';
  const webhooks = useWebhooks(vendor.id);
  const create = useCreateWebhook(vendor.id);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  return (
    <Card role="region" aria-labelledby="webhooks-title">
      <CardHeader>
        <CardTitle id="webhooks-title" className="text-lg">
          Webhooks
        </CardTitle>
        <CardDescription>
          Send leads and commissions to your CRM: signed HTTPS requests (Standard Webhooks), retried for about a day.
          {owner ? '' : ' Only owners add or delete endpoints.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {secret ? (
          <div role="status" className="grid gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm">
            <p className="font-semibold">{`Signing secret for ${secret.url}`}</p>
            <p>Copy it now: it is shown only once.</p>
            <div className="flex flex-wrap items-center gap-2">
              <code className="rounded bg-background px-2 py-1 break-all" data-testid="webhook-secret">
                {secret.secret}
              </code>
              <Button
                size="sm"
                variant="outline"
                onClick={() =>
                  void navigator.clipboard
                    ?.writeText(secret.secret)
                    .then(() => toast({ title: 'Copied', description: 'The signing secret is on your clipboard.' }))
                }
              >
                <Copy aria-hidden="true" />
                Copy secret
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setSecret(null)}>
                Done
              </Button>
            </div>
          </div>
        ) : null}

        {webhooks.isError ? (
          <p
            role="alert"
            className="text-sm"
          >{`Failed to load the webhooks. ${errorText(webhooks.error, 'Please try again.')}`}</p>
        ) : webhooks.isPending ? (
          <Spinner className="size-6" label="Loading the webhooks" />
        ) : webhooks.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No endpoint yet.</p>
        ) : (
          <ul className="grid gap-4" aria-label="Webhook endpoints">
            {webhooks.data.map((endpoint) => (
              <li key={endpoint.id}>
                <EndpointCard vendorId={vendor.id} endpoint={endpoint} owner={owner} />
              </li>
            ))}
          </ul>
        )}

        {owner ? (
          <Form
            schema={CreateWebhookRequest}
            defaultValues={{ url: '', events: [...WEBHOOK_EVENTS], description: '' }}
            aria-label="Add endpoint"
            className="grid gap-4 rounded-lg border border-border p-4"
            onSubmit={async (body, form) => {
              setFailure(null);
              const created = await create.mutateAsync(body);
              setSecret({ url: created.endpoint.url, secret: created.secret });
              form.reset();
              toast({ title: 'Endpoint added' });
            }}
            onError={(error) => setFailure(refusalText(error, 'Failed to add the endpoint'))}
          >
            {({ formState }) => (
              <>
                <h3 className="text-base font-semibold">Add endpoint</h3>
                <FormInput
                  name="url"
                  id="webhook-url"
                  label="Endpoint URL (HTTPS)"
                  type="url"
                  inputMode="url"
                  placeholder="https://crm.example.com/hooks/referral-hub"
                />
                <FormControl name="events">
                  {({ field, error }) => {
                    const chosen = (field.value as string[] | undefined) ?? [];
                    return (
                      <fieldset className="grid gap-2" aria-describedby={error ? 'webhook-events-error' : undefined}>
                        <legend className="mb-1 text-sm font-medium">Events</legend>
                        {WEBHOOK_EVENTS.map((event) => (
                          <CheckboxField
                            key={event}
                            id={`webhook-event-${event}`}
                            label={event}
                            hint={EVENT_TEXT[event]}
                            checked={chosen.includes(event)}
                            onChange={(e) =>
                              field.onChange(
                                e.target.checked ? [...chosen, event] : chosen.filter((value) => value !== event),
                              )
                            }
                          />
                        ))}
                        {error ? (
                          <p id="webhook-events-error" className="text-sm font-medium text-destructive">
                            {error}
                          </p>
                        ) : null}
                      </fieldset>
                    );
                  }}
                </FormControl>
                <FormInput name="description" id="webhook-description" label="Description (optional)" />
                {failure ? (
                  <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
                    {failure}
                  </p>
                ) : null}
                <div>
                  <Button type="submit" disabled={formState.isSubmitting}>
                    {formState.isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                    Add endpoint
                  </Button>
                </div>
              </>
            )}
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}

function EndpointCard({ vendorId, endpoint, owner }: { vendorId: string; endpoint: WebhookEndpoint; owner: boolean }) {
  const remove = useDeleteWebhook(vendorId);
  const test = useSendTestWebhook(vendorId);
  const deliveries = useWebhookDeliveries(vendorId, endpoint.id);
  const failed = (error: unknown, fallback: string) =>
    toast({ variant: 'destructive', title: 'Error', description: refusalText(error, fallback) });

  return (
    <article aria-label={endpoint.url} className="grid gap-3 rounded-lg border border-border p-3 text-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-all">{endpoint.url}</p>
          {endpoint.description ? <p className="text-muted-foreground">{endpoint.description}</p> : null}
          <p className="text-muted-foreground">{`${endpoint.events.join(', ')} · secret …${endpoint.secretHint}`}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="outline"
            disabled={test.isPending}
            onClick={() =>
              test.mutate(endpoint.id, {
                onSuccess: () => toast({ title: 'Test event queued' }),
                onError: (error) => failed(error, 'Failed to send the test event'),
              })
            }
            aria-label={`Send test event to ${endpoint.url}`}
          >
            <Send aria-hidden="true" />
            Send test event
          </Button>
          {owner ? (
            <Button
              size="sm"
              variant="outline"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(endpoint.id, {
                  onSuccess: () => toast({ title: 'Endpoint deleted' }),
                  onError: (error) => failed(error, 'Failed to delete the endpoint'),
                })
              }
              aria-label={`Delete ${endpoint.url}`}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          ) : null}
        </div>
      </div>
      {deliveries.isError ? (
        <p className="text-muted-foreground">{`Failed to load the deliveries. ${errorText(deliveries.error, '')}`}</p>
      ) : deliveries.isPending ? null : deliveries.data.length === 0 ? (
        <p className="text-muted-foreground">No delivery yet.</p>
      ) : (
        <div className="overflow-x-auto" role="region" aria-label={`Deliveries to ${endpoint.url}`} tabIndex={0}>
          <table className="w-full min-w-[40rem] text-left">
            <thead>
              <tr className="border-b border-border text-muted-foreground">
                {['Event', 'State', 'Attempts', 'Response', 'Next attempt'].map((header) => (
                  <th key={header} scope="col" className="py-1 pr-3 font-medium">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((d) => (
                <tr key={d.id} className="border-b border-border/50 align-top">
                  <td className="py-1 pr-3">
                    <div>{d.eventType}</div>
                    <div className="text-xs text-muted-foreground">{formatDateTime(d.createdAt)}</div>
                  </td>
                  <td className="py-1 pr-3">{d.state}</td>
                  <td className="py-1 pr-3 tabular-nums">{d.attempts}</td>
                  <td className="max-w-64 py-1 pr-3">
                    {d.responseStatus !== null ? <div>{`HTTP ${d.responseStatus}`}</div> : null}
                    {d.responseBody || d.error ? (
                      <div className="line-clamp-2 text-xs break-all text-muted-foreground">
                        {d.error ?? d.responseBody}
                      </div>
                    ) : null}
                  </td>
                  <td className="py-1 pr-3 whitespace-nowrap">
                    {d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}
