import { operations, type DemoRequest } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/demo-request → 201 {message}. */
export const submitDemoRequest = (body: DemoRequest) => call(operations.requestDemo, { body });

export const useSubmitDemoRequest = () => useMutation({ mutationFn: submitDemoRequest });
