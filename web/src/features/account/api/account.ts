import type { ChangeEmailRequest, ChangePasswordRequest } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/account/password → {message}; 403 wrong current password. Other sessions end. */
export const changePassword = (body: ChangePasswordRequest) =>
  apiRequest<{ message?: string }>('POST', '/api/account/password', body);

/** POST /api/account/email → {message}; 403 wrong password, 409 taken, 400 same address. */
export const changeEmail = (body: ChangeEmailRequest) =>
  apiRequest<{ message?: string }>('POST', '/api/account/email', body);

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
export const useChangeEmail = () => useMutation({ mutationFn: changeEmail });
