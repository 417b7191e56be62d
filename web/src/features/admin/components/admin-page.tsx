import { ArrowLeft, FileUp, PencilLine } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { DocumentUpload } from './document-upload';
import { EMPTY_PROGRAM, ProgramForm } from './program-form';
import { ProgramsTable } from './programs-table';

/** /admin (spec 2, administrators only): Referral Program Management. */
export function AdminPage() {
  const [tab, setTab] = useState('upload');
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-8">
      <Link
        to={paths.home}
        className="mb-4 inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden="true" /> Back to Dashboard
      </Link>
      <h1 className="text-3xl font-bold tracking-tight">Referral Program Management</h1>
      <p className="mt-2 text-muted-foreground">Add, analyze, activate and deactivate referral programs.</p>

      <Card className="mt-6">
        <CardContent className="pt-6">
          {/* Both panels stay mounted (hidden when inactive) so an upload in progress survives a tab switch. */}
          <Tabs value={tab} onValueChange={setTab}>
            <TabsList>
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
          <CardDescription>Switch a program off to hide it from referrers.</CardDescription>
        </CardHeader>
        <CardContent>
          <ProgramsTable />
        </CardContent>
      </Card>
    </section>
  );
}
