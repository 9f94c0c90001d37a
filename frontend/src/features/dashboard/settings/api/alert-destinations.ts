import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiPut } from '../../../../lib/api-client';
import {
  routePath,
  type CreateDestinationInput,
  type CreatedDestination,
  type DeliveryList,
  type DestinationList,
  type DestinationView,
  type TestDelivery,
  type UpdateDestinationInput,
} from '../../../../lib/contracts';

const destinationKeys = {
  all: ['account', 'alert-destinations'] as const,
  deliveries: (destinationId: string) => ['account', 'alert-destinations', destinationId, 'deliveries'] as const,
};

/** `GET /api/me/alert-destinations`: the caller's destinations and whether their plan includes them. */
export const fetchDestinations = (signal?: AbortSignal): Promise<DestinationList> => apiGet<DestinationList>(routePath('list-alert-destinations'), { signal });

export const destinationsQueryOptions = () => queryOptions({ queryKey: destinationKeys.all, queryFn: ({ signal }) => fetchDestinations(signal) });

export function useDestinations() {
  return useQuery(destinationsQueryOptions());
}

/** `GET …/{destinationId}/deliveries`: the newest deliveries, only while the log is open. */
export const fetchDeliveries = (destinationId: string, signal?: AbortSignal): Promise<DeliveryList> =>
  apiGet<DeliveryList>(routePath('list-destination-deliveries', { destinationId }), { signal });

export function useDeliveries(destinationId: string, enabled: boolean) {
  return useQuery({ queryKey: destinationKeys.deliveries(destinationId), queryFn: ({ signal }) => fetchDeliveries(destinationId, signal), enabled });
}

/** `POST /api/me/alert-destinations` → a webhook's signing secret, in this answer only. */
export const createDestination = (input: CreateDestinationInput): Promise<CreatedDestination> => apiPost<CreatedDestination>(routePath('create-alert-destination'), input);

export const updateDestination = ({ destinationId, changes }: { destinationId: string; changes: UpdateDestinationInput }): Promise<DestinationView> =>
  apiPut<DestinationView>(routePath('update-alert-destination', { destinationId }), changes);

export const deleteDestination = (destinationId: string): Promise<void> => apiDelete(routePath('delete-alert-destination', { destinationId }));

export const sendTestAlert = (destinationId: string): Promise<TestDelivery> => apiPost<TestDelivery>(routePath('test-alert-destination', { destinationId }), {});

function useDestinationMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  // The list and every open delivery log start with the same key.
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: destinationKeys.all }) });
}

export const useCreateDestination = () => useDestinationMutation(createDestination);
export const useUpdateDestination = () => useDestinationMutation(updateDestination);
export const useDeleteDestination = () => useDestinationMutation(deleteDestination);
export const useSendTestAlert = () => useDestinationMutation(sendTestAlert);
