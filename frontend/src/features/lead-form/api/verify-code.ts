import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { routePath, type VerifyCodeInput, type VerifyCodeResponse } from '../../../lib/contracts';

export const verifyCode = (input: VerifyCodeInput): Promise<VerifyCodeResponse> =>
  apiPost<VerifyCodeResponse>(routePath('verify-email-code'), input);

export const verifyCodeMutationOptions = () => ({ mutationKey: ['verification-codes', 'verify'], mutationFn: verifyCode });

export function useVerifyCode() {
  return useMutation(verifyCodeMutationOptions());
}
