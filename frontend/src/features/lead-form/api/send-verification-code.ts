import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { routePath, type SendVerificationCodeInput, type SendVerificationCodeResponse } from '../../../lib/contracts';

export const sendVerificationCode = (input: SendVerificationCodeInput): Promise<SendVerificationCodeResponse> =>
  apiPost<SendVerificationCodeResponse>(routePath('send-verification-code'), input);

export const sendVerificationCodeMutationOptions = () => ({
  mutationKey: ['verification-codes', 'send'],
  mutationFn: sendVerificationCode,
});

export function useSendVerificationCode() {
  return useMutation(sendVerificationCodeMutationOptions());
}
