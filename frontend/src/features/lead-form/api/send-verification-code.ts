import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import type { SendVerificationCodeInput, SendVerificationCodeResponse } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

export const sendVerificationCode = (input: SendVerificationCodeInput): Promise<SendVerificationCodeResponse> =>
  apiPost<SendVerificationCodeResponse>(routePath('send-verification-code'), input);

export const sendVerificationCodeMutationOptions = () => ({
  mutationKey: ['verification-codes', 'send'],
  mutationFn: sendVerificationCode,
});

export function useSendVerificationCode() {
  return useMutation(sendVerificationCodeMutationOptions());
}
