import type { ProgramAnalysis } from '@app/contracts';
import { mutationErrorFromResponse, networkError } from '@/lib/api-client';

export const ANALYZE_URL = '/api/analyze-referral-program';

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
 * the bytes sent). Failures read like every other mutation's (spec 7): 5xx → status text, else the JSON message.
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
    xhr.open('POST', ANALYZE_URL);
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
      if (status >= 200 && status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as ProgramAnalysis);
        } catch (error) {
          reject(networkError(error));
        }
        return;
      }
      const res = new Response(xhr.responseText, {
        status: status >= 200 && status <= 599 ? status : 500,
        statusText: xhr.statusText,
      });
      void mutationErrorFromResponse(res).then(reject, reject);
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
