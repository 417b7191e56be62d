import type { Vendor } from '@app/contracts';
import { Building2, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormInput } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { useCreateVendor } from '../api/create-vendor';
import { CreateWorkspaceForm, EMPTY_WORKSPACE } from '../utils/forms';

/** Create a workspace: name, website (its domain verifies it), and where leads are emailed. */
export function CreateWorkspace({
  email,
  company = '',
  first,
  onCreated,
  onCancel,
}: {
  /** The user's address: the default lead inbox. */
  email: string;
  /** The company the user signed up with: the name offered for their first workspace. */
  company?: string;
  /** The user has no workspace yet (the page's main content). */
  first: boolean;
  onCreated: (vendor: Vendor) => void;
  onCancel?: () => void;
}) {
  const create = useCreateVendor();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Building2 className="size-5 text-primary" aria-hidden="true" />
          {first ? 'Create your vendor workspace' : 'New vendor workspace'}
        </CardTitle>
        <CardDescription>
          Your company's space on Referral Hub: referrers' leads for your company come here once it is verified. It is
          verified when a member signs in with an address on its website's domain.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          schema={CreateWorkspaceForm}
          defaultValues={{ ...EMPTY_WORKSPACE, name: company.trim() }}
          aria-label="Create a vendor workspace"
          className="grid gap-4"
          onSubmit={async (request, form) => {
            const vendor = await create.mutateAsync(request);
            toast({
              title: 'Workspace created',
              description: vendor.verified
                ? `${vendor.name} is verified: your address is at ${vendor.domain}.`
                : `Next, verify ${vendor.name} to receive leads.`,
            });
            form.reset(EMPTY_WORKSPACE);
            onCreated(vendor);
          }}
          onError={(error, form) => {
            if (isApiError(error, 'WEBMAIL_DOMAIN') || isApiError(error, 'DOMAIN_TAKEN')) {
              form.setError('website', { type: 'server', message: error.message });
              form.setFocus('website');
              return;
            }
            toast({
              variant: 'destructive',
              title: 'Error',
              description: errorText(error, 'Failed to create the workspace'),
            });
          }}
        >
          {({ formState }) => (
            <>
              <FormInput name="name" id="new-vendor-name" label="Company name" autoComplete="organization" />
              <FormInput
                name="website"
                id="new-vendor-website"
                label="Website"
                inputMode="url"
                autoComplete="url"
                placeholder="acme.com"
              />
              <FormInput
                name="leadInbox"
                id="new-vendor-inbox"
                label="Lead inbox (optional)"
                type="email"
                inputMode="email"
                placeholder={email}
              />
              <p className="-mt-2 text-xs text-muted-foreground">
                Where new leads are emailed. Left empty, they go to {email}.
              </p>
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                {onCancel ? (
                  <Button variant="outline" onClick={onCancel}>
                    Cancel
                  </Button>
                ) : null}
                <Button type="submit" disabled={formState.isSubmitting}>
                  {formState.isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                  Create workspace
                </Button>
              </div>
            </>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}
