import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import type { VerifyCodeInput, VerifyCodeResponse } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

export const verifyCode = (input: VerifyCodeInput): Promise<VerifyCodeResponse> =>
  apiPost<VerifyCodeResponse>(routePath('verify-email-code'), input);

export const verifyCodeMutationOptions = () => ({ mutationKey: ['verification-codes', 'verify'], mutationFn: verifyCode });

export function useVerifyCode() {
  return useMutation(verifyCodeMutationOptions());
}
