import {
  PROGRAM_DOCUMENT_ACCEPT,
  PROGRAM_DOCUMENT_MAX_BYTES,
  PROGRAM_MESSAGES,
  type ProgramAnalysis,
} from '@app/contracts';
import { CheckCircle2, FileSearch, Loader2, X, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { analyzeDocument } from '../api/analyze-document';
import { ProgramForm } from './program-form';

export type UploadStatus = 'idle' | 'uploading' | 'analyzing' | 'success' | 'error';

export const ANALYSIS_TEXTS = {
  uploading: 'Uploading document...',
  analyzing: 'Analyzing document...',
  success: 'Document analyzed successfully',
  error: 'Error analyzing document',
  toast: { title: 'Success', description: 'Referral program document analyzed successfully' },
  fallback: 'Failed to analyze document',
} as const;

/** The whole analysis as labelled text, for the 'Analyzed Content' box. */
export function formatAnalysis(a: ProgramAnalysis): string {
  return [
    `Program Name: ${a.programName}`,
    `Vendor: ${a.vendorName || 'not named'}`,
    `Website: ${a.website}`,
    '',
    'Description:',
    a.description,
    '',
    'Reward Details:',
    a.rewardDetails,
  ].join('\n');
}

/** The 'Upload & Analyze Document' tab (spec 2/4): idle → uploading → analyzing → success | error. */
export function DocumentUpload() {
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [status, setStatus] = useState<UploadStatus>('idle');
  const [progress, setProgress] = useState(0);
  const [analysis, setAnalysis] = useState<ProgramAnalysis | null>(null);
  const [errorMessage, setErrorMessage] = useState('');
  const busy = status === 'uploading' || status === 'analyzing';

  useEffect(() => () => abortRef.current?.abort(), []);

  const clear = () => {
    abortRef.current?.abort();
    abortRef.current = null;
    if (inputRef.current) inputRef.current.value = '';
    setFile(null);
    setStatus('idle');
    setProgress(0);
    setAnalysis(null);
    setErrorMessage('');
  };

  const fail = (message: string) => {
    setStatus('error');
    setErrorMessage(message);
    toast({ variant: 'destructive', title: 'Error', description: message });
  };

  const analyze = async () => {
    if (!file || busy) return;
    setAnalysis(null);
    setErrorMessage('');
    if (file.size > PROGRAM_DOCUMENT_MAX_BYTES) {
      fail(PROGRAM_MESSAGES.tooLarge);
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress(0);
    setStatus('uploading');
    try {
      const result = await analyzeDocument(file, {
        signal: controller.signal,
        onUploadProgress: (percent) => {
          if (!controller.signal.aborted) setProgress(percent);
        },
        onUploaded: () => {
          if (!controller.signal.aborted) setStatus('analyzing');
        },
      });
      if (controller.signal.aborted) return;
      setAnalysis(result);
      setStatus('success');
      toast(ANALYSIS_TEXTS.toast);
    } catch (error) {
      if (controller.signal.aborted) return;
      fail(errorText(error, ANALYSIS_TEXTS.fallback));
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
    }
  };

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <Label htmlFor="program-document">Referral program document</Label>
        <input
          ref={inputRef}
          id="program-document"
          type="file"
          accept={PROGRAM_DOCUMENT_ACCEPT}
          aria-describedby="program-document-hint"
          disabled={busy}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setStatus('idle');
            setProgress(0);
            setAnalysis(null);
            setErrorMessage('');
          }}
          className="block w-full text-sm file:mr-4 file:rounded-md file:border-0 file:bg-muted file:px-4 file:py-2 file:text-sm file:font-medium hover:file:bg-muted/80"
        />
        <p id="program-document-hint" className="text-xs text-muted-foreground">
          Supported formats: PDF, DOC, DOCX, TXT, PNG, JPG (at most 10 MB)
        </p>
      </div>

      <div className="flex flex-wrap gap-3">
        <Button type="button" onClick={() => void analyze()} disabled={!file || busy}>
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <FileSearch aria-hidden="true" />} Analyze
          Document
        </Button>
        <Button type="button" variant="outline" onClick={clear} disabled={!file && status === 'idle'}>
          <X aria-hidden="true" /> Clear
        </Button>
      </div>

      {status !== 'idle' ? (
        <div className="grid gap-2" aria-live="polite">
          {busy ? (
            <>
              <p className="text-sm font-medium">
                {status === 'uploading' ? ANALYSIS_TEXTS.uploading : ANALYSIS_TEXTS.analyzing}
              </p>
              <Progress
                value={status === 'analyzing' ? 100 : progress}
                label={status === 'uploading' ? 'Upload progress' : 'Uploaded; analyzing'}
              />
            </>
          ) : null}
          {status === 'success' ? (
            <p className="flex items-center gap-2 text-sm font-medium text-green-700">
              <CheckCircle2 className="size-4" aria-hidden="true" /> {ANALYSIS_TEXTS.success}
            </p>
          ) : null}
          {status === 'error' ? (
            <div className="text-sm text-destructive">
              <p className="flex items-center gap-2 font-medium">
                <XCircle className="size-4" aria-hidden="true" /> {ANALYSIS_TEXTS.error}
              </p>
              {errorMessage ? <p className="mt-1">{errorMessage}</p> : null}
            </div>
          ) : null}
        </div>
      ) : null}

      {analysis ? (
        <>
          <div className="grid gap-2">
            <h3 id="analyzed-content-title" className="text-sm font-semibold">
              Analyzed Content
            </h3>
            <pre
              tabIndex={0}
              role="region"
              aria-labelledby="analyzed-content-title"
              className="max-h-[200px] overflow-y-auto rounded-md border border-border bg-muted p-3 font-sans text-sm whitespace-pre-wrap"
            >
              {formatAnalysis(analysis)}
            </pre>
          </div>
          <div className="grid gap-3">
            <h3 className="text-lg font-semibold">Review &amp; Save</h3>
            <ProgramForm
              key={analysis.documentId}
              idPrefix="review"
              defaultValues={{
                name: analysis.programName,
                description: analysis.description,
                website: analysis.website,
                rewardDetails: analysis.rewardDetails,
              }}
              proposedVendor={analysis.vendorName.trim()}
              onSaved={clear}
            />
          </div>
        </>
      ) : null}
    </div>
  );
}
