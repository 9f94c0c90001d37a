import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '../../../../lib/api-client';
import { routePath, type ApiTokenList, type CreateApiTokenInput, type CreatedApiToken } from '../../../../lib/contracts';

const apiTokenKeys = { all: ['account', 'api-tokens'] as const };

/** `GET /api/me/api-tokens`: the caller's tokens and whether their plan includes API access. */
export const fetchApiTokens = (signal?: AbortSignal): Promise<ApiTokenList> => apiGet<ApiTokenList>(routePath('list-api-tokens'), { signal });

export const apiTokensQueryOptions = () => queryOptions({ queryKey: apiTokenKeys.all, queryFn: ({ signal }) => fetchApiTokens(signal) });

export function useApiTokens() {
  return useQuery(apiTokensQueryOptions());
}

/** `POST /api/me/api-tokens` → the secret, in this answer only. */
export const createApiToken = (input: CreateApiTokenInput): Promise<CreatedApiToken> => apiPost<CreatedApiToken>(routePath('create-api-token'), input);

/** `DELETE /api/me/api-tokens/{tokenId}` (204). */
export const revokeApiToken = (tokenId: string): Promise<void> => apiDelete(routePath('revoke-api-token', { tokenId }));

function useTokenMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }) });
}

export const useCreateApiToken = () => useTokenMutation(createApiToken);
export const useRevokeApiToken = () => useTokenMutation(revokeApiToken);
