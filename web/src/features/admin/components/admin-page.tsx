import { ArrowLeft, Banknote, Building2, FileText, FileUp, PencilLine } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { DocumentUpload } from './document-upload';
import { EMPTY_PROGRAM, ProgramForm } from './program-form';
import { ProgramsTable } from './programs-table';
import { PayoutsPanel } from './payouts-panel';
import { VendorsPanel } from './vendors-panel';

/**
 * /admin (spec 2, administrators only): Referral Program Management, and the vendor workspaces (issue 9):
 * approve them, create one for a vendor, link programs to them.
 */
export function AdminPage() {
  const [section, setSection] = useState('programs');
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-8">
      <Link
        to={paths.home}
        className="mb-4 inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden="true" /> Back to Dashboard
      </Link>
      <h1 className="text-3xl font-bold tracking-tight">Referral Program Management</h1>
      <p className="mt-2 text-muted-foreground">
        Add, analyze, activate and deactivate referral programs, and approve the vendors they belong to.
      </p>

      <Tabs value={section} onValueChange={setSection} className="mt-6">
        <TabsList aria-label="Administration" className="flex w-full overflow-x-auto sm:inline-flex sm:w-auto">
          <TabsTrigger value="programs" className="flex-1 sm:flex-none">
            <FileText aria-hidden="true" className="max-xs:hidden" /> Programs
          </TabsTrigger>
          <TabsTrigger value="vendors" className="flex-1 sm:flex-none">
            <Building2 aria-hidden="true" className="max-xs:hidden" /> Vendors
          </TabsTrigger>
          <TabsTrigger value="payouts" className="flex-1 sm:flex-none">
            <Banknote aria-hidden="true" className="max-xs:hidden" /> Payouts
          </TabsTrigger>
        </TabsList>
        <TabsContent value="programs">
          <Programs />
        </TabsContent>
        <TabsContent value="vendors">
          <Card>
            <CardHeader>
              <CardTitle>Vendor Workspaces</CardTitle>
              <CardDescription>
                A workspace is verified by a member's address on its website, or by your approval. Only verified vendors
                receive leads.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <VendorsPanel />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="payouts">
          <PayoutsPanel />
        </TabsContent>
      </Tabs>
    </section>
  );
}

function Programs() {
  const [tab, setTab] = useState('upload');
  return (
    <>
      <Card>
        <CardContent className="pt-6">
          {/* Both panels stay mounted (hidden when inactive) so an upload in progress survives a tab switch. */}
          <Tabs value={tab} onValueChange={setTab}>
            <TabsList className="h-auto flex-wrap justify-start">
              <TabsTrigger value="upload">
                <FileUp aria-hidden="true" /> Upload &amp; Analyze Document
              </TabsTrigger>
              <TabsTrigger value="manual">
                <PencilLine aria-hidden="true" /> Manual Entry
              </TabsTrigger>
            </TabsList>
            <TabsContent value="upload" forceMount hidden={tab !== 'upload'}>
              <DocumentUpload />
            </TabsContent>
            <TabsContent value="manual" forceMount hidden={tab !== 'manual'}>
              <ProgramForm idPrefix="manual" defaultValues={EMPTY_PROGRAM} />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>

      <Card className="mt-8">
        <CardHeader>
          <CardTitle>Existing Referral Programs</CardTitle>
          <CardDescription>Switch a program off to hide it from referrers; link it to its vendor.</CardDescription>
        </CardHeader>
        <CardContent>
          <ProgramsTable />
        </CardContent>
      </Card>
    </>
  );
}
