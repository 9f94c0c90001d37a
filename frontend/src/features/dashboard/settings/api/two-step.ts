import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../../lib/api-client';
import { routePath, type TwoStepStatus } from '../../../../lib/contracts';

export const twoStepKeys = { all: ['account', 'two-step'] as const };

/** `GET /api/me/two-step`: whether TOTP is on (Cognito's answer) and whether the caller's role requires it. */
export const fetchTwoStepStatus = (signal?: AbortSignal): Promise<TwoStepStatus> => apiGet<TwoStepStatus>(routePath('get-two-step-status'), { signal });

export const twoStepQueryOptions = () => queryOptions({ queryKey: twoStepKeys.all, queryFn: ({ signal }) => fetchTwoStepStatus(signal) });

export function useTwoStepStatus() {
  return useQuery(twoStepQueryOptions());
}
