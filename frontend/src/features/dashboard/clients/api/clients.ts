import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPut } from '../../../../lib/api-client';
import { routePath, type ProviderBranding, type ProviderOverview } from '../../../../lib/contracts';
import { accountKeys } from '../../../account/api/account';

/** IT providers (issue 22 item 3): the acting organisation's clients and its branding of their reports. */
export const clientsKeys = {
  overview: () => [...accountKeys.all, 'provider-clients'] as const,
  branding: () => [...accountKeys.all, 'provider-branding'] as const,
};

export const providerOverviewQueryOptions = () =>
  queryOptions({ queryKey: clientsKeys.overview(), queryFn: ({ signal }) => apiGet<ProviderOverview>(routePath('get-provider-overview'), { signal }) });

export const useProviderOverview = () => useQuery(providerOverviewQueryOptions());

export const useBranding = (enabled: boolean) =>
  useQuery({
    queryKey: clientsKeys.branding(),
    queryFn: ({ signal }) => apiGet<{ branding: ProviderBranding | null }>(routePath('get-provider-branding'), { signal }).then((answer) => answer.branding),
    enabled,
  });

export function useSaveBranding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; colour: string; logo: string | null }) => apiPut<{ branding: ProviderBranding }>(routePath('put-provider-branding'), input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: clientsKeys.branding() }),
  });
}
