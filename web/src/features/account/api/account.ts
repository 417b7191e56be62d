import { operations, type ChangeEmailRequest, type ChangePasswordRequest } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/account/password → {message}; WRONG_PASSWORD for a wrong current password. Other sessions end. */
export const changePassword = (body: ChangePasswordRequest) => call(operations.changePassword, { body });

/** POST /api/account/email → {message}; WRONG_PASSWORD, SAME_EMAIL or LOGIN_BACKOFF (an address with an account answers as a free one). */
export const changeEmail = (body: ChangeEmailRequest) => call(operations.changeEmail, { body });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
export const useChangeEmail = () => useMutation({ mutationFn: changeEmail });
