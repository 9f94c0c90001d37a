import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '../../../lib/api-client';
import type { OptOutConfirmView, OptOutRequestView, ScannerInfoView } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

/** `GET /api/scanner`: the scanner's user agent, addresses, politeness and abuse address. */
export const scannerInfoQueryOptions = () =>
  queryOptions({
    queryKey: ['scanner-info'] as const,
    queryFn: ({ signal }) => apiGet<ScannerInfoView>(routePath('get-scanner-info'), { signal }),
  });

export function useScannerInfo() {
  return useQuery(scannerInfoQueryOptions());
}

export const requestOptOut = (domain: string): Promise<OptOutRequestView> => apiPost<OptOutRequestView>(routePath('request-scanner-opt-out'), { domain });

export const confirmOptOut = ({ domain, token }: { domain: string; token: string }): Promise<OptOutConfirmView> =>
  apiPost<OptOutConfirmView>(routePath('confirm-scanner-opt-out', { domain }), { token });

export const removeOptOut = (domain: string): Promise<void> => apiDelete(routePath('remove-scanner-opt-out', { domain }));

export function useRequestOptOut() {
  return useMutation({ mutationKey: ['scanner-opt-outs', 'request'], mutationFn: requestOptOut });
}

export function useConfirmOptOut() {
  return useMutation({ mutationKey: ['scanner-opt-outs', 'confirm'], mutationFn: confirmOptOut });
}

export function useRemoveOptOut() {
  return useMutation({ mutationKey: ['scanner-opt-outs', 'remove'], mutationFn: removeOptOut });
}
