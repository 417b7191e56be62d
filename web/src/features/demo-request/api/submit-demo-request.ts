import type { DemoRequest } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/demo-request → 201 {message}. */
export const submitDemoRequest = (body: DemoRequest) =>
  apiRequest<{ message?: string }>('POST', '/api/demo-request', body);

export const useSubmitDemoRequest = () => useMutation({ mutationFn: submitDemoRequest });
