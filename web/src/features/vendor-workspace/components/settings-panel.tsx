import { ERRORS, type Vendor } from '@app/contracts';
import { Loader2, Save } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormInput } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { useUpdateVendor } from '../api/update-vendor';
import { DetailsForm, LeadInboxForm } from '../utils/forms';

const SAVED = { title: 'Workspace saved', description: 'Your changes have been saved.' };
const failed = (error: unknown) =>
  toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to save the workspace') });

/**
 * Name and website (owners; the website only until the workspace is verified), and the lead inbox (any
 * member, once verified).
 */
export function SettingsPanel({ vendor }: { vendor: Vendor }) {
  const owner = vendor.role === 'owner';
  return (
    <Card role="region" aria-labelledby="settings-title">
      <CardHeader>
        <CardTitle id="settings-title" className="text-lg">
          Settings
        </CardTitle>
        <CardDescription>
          {owner ? 'Owners change the name and website.' : 'Only owners change the name and website.'} Any member
          changes the lead inbox once the workspace is verified.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-8">
        {owner ? <DetailsSettings key={`${vendor.id}-${vendor.name}-${vendor.domain}`} vendor={vendor} /> : null}
        <InboxSettings key={`${vendor.id}-${vendor.leadInbox}`} vendor={vendor} />
      </CardContent>
    </Card>
  );
}

function DetailsSettings({ vendor }: { vendor: Vendor }) {
  const update = useUpdateVendor(vendor.id);
  const locked = vendor.verified;
  return (
    <Form
      schema={DetailsForm}
      defaultValues={{ name: vendor.name, website: vendor.domain }}
      aria-label="Name and website"
      className="grid gap-4"
      onSubmit={async ({ name, website }) => {
        // A verified workspace keeps its website (WEBSITE_LOCKED): only the name is sent.
        await update.mutateAsync(locked ? { name } : { name, website });
        toast(SAVED);
      }}
      onError={(error, form) => {
        if (isApiError(error, 'WEBMAIL_DOMAIN') || isApiError(error, 'DOMAIN_TAKEN')) {
          form.setError('website', { type: 'server', message: error.message });
          return;
        }
        failed(error);
      }}
    >
      {({ formState }) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormInput name="name" id="vendor-name" label="Company name" autoComplete="organization" />
            <FormInput
              name="website"
              id="vendor-website"
              label="Website"
              inputMode="url"
              placeholder="acme.com"
              readOnly={locked}
              aria-readonly={locked || undefined}
            />
          </div>
          {locked ? <p className="-mt-2 text-xs text-muted-foreground">{ERRORS.WEBSITE_LOCKED.message}</p> : null}
          <div className="flex justify-end">
            <Button type="submit" variant="outline" disabled={formState.isSubmitting || !formState.isDirty}>
              {formState.isSubmitting ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Save aria-hidden="true" />
              )}
              Save name and website
            </Button>
          </div>
        </>
      )}
    </Form>
  );
}

function InboxSettings({ vendor }: { vendor: Vendor }) {
  const update = useUpdateVendor(vendor.id);
  const editable = vendor.verified;
  return (
    <Form
      schema={LeadInboxForm}
      defaultValues={{ leadInbox: vendor.leadInbox }}
      aria-label="Lead inbox address"
      className="grid gap-4"
      onSubmit={async ({ leadInbox }) => {
        await update.mutateAsync({ leadInbox });
        toast(SAVED);
      }}
      onError={failed}
    >
      {({ formState }) => (
        <>
          <FormInput
            name="leadInbox"
            id="vendor-lead-inbox"
            label="Lead inbox"
            type="email"
            inputMode="email"
            readOnly={!editable}
            aria-readonly={!editable || undefined}
          />
          <p className="-mt-2 text-xs text-muted-foreground">
            {editable
              ? 'Every new lead is emailed here and to each member.'
              : 'You can change it once the workspace is verified.'}
          </p>
          {editable ? (
            <div className="flex justify-end">
              <Button type="submit" variant="outline" disabled={formState.isSubmitting || !formState.isDirty}>
                {formState.isSubmitting ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <Save aria-hidden="true" />
                )}
                Save lead inbox
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Form>
  );
}
