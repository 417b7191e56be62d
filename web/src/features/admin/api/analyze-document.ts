import { operations, type ProgramAnalysis } from '@app/contracts';
import { parseAnswer, urlFor } from '@/lib/api-client';
import { answerData, errorFromAnswer, networkError } from '@/lib/http';

const analyze = operations.analyzeProgramDocument;

export interface AnalyzeCallbacks {
  /** Percent (0-100) of the request body sent so far, from the browser's upload progress events. */
  onUploadProgress: (percent: number) => void;
  /** The whole file has been sent; the server is now reading it. */
  onUploaded: () => void;
  signal?: AbortSignal;
}

/**
 * POST /api/analyze-referral-program (multipart/form-data, field `file`) → ProgramAnalysis. Sent with
 * XMLHttpRequest rather than fetch because only XHR reports upload progress (issue 4: a real progress bar from
 * the bytes sent). The answer and the failures are read as every other call's (lib/api-client).
 */
export function analyzeDocument(
  file: File,
  { onUploadProgress, onUploaded, signal }: AnalyzeCallbacks,
): Promise<ProgramAnalysis> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let uploaded = false;
    const markUploaded = () => {
      if (uploaded) return;
      uploaded = true;
      onUploadProgress(100);
      onUploaded();
    };
    xhr.open(analyze.method, urlFor(analyze));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onUploadProgress(Math.min(100, (event.loaded / event.total) * 100));
    };
    xhr.upload.onload = markUploaded;
    xhr.onload = () => {
      markUploaded();
      const status = xhr.status;
      if (status < 200 || status >= 300) {
        reject(errorFromAnswer(status, xhr.statusText, xhr.responseText));
        return;
      }
      try {
        resolve(parseAnswer(analyze, answerData(xhr.responseText), status));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(networkError(new Error('Network error: the document could not be sent')));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('The upload was cancelled', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    const body = new FormData();
    body.append('file', file);
    xhr.send(body);
  });
}
