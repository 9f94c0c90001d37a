import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../../lib/api-client';
import { routePath, type SupportRequestCreated, type SupportRequestInput, type SupportRequestsPage } from '../../../../lib/contracts';
import { accountKeys } from '../../../account/api/account';

export const supportRequestsKey = () => [...accountKeys.all, 'support-requests'] as const;

/** `GET /api/me/support-requests`: the user's own requests (newest first) and what their plan promises. */
export const supportRequestsQueryOptions = () =>
  queryOptions({ queryKey: supportRequestsKey(), queryFn: ({ signal }) => apiGet<SupportRequestsPage>(routePath('list-support-requests'), { signal }) });

export function useSupportRequests() {
  return useQuery(supportRequestsQueryOptions());
}

/** `POST /api/me/support-requests` → 201 with the stored request and the first-response time. */
export const createSupportRequest = (input: SupportRequestInput): Promise<SupportRequestCreated> =>
  apiPost<SupportRequestCreated>(routePath('create-support-request'), input);

export function useCreateSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createSupportRequest, onSettled: () => queryClient.invalidateQueries({ queryKey: supportRequestsKey() }) });
}
