import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPut } from '../../../lib/api-client';
import {
  routePath,
  type NotificationPreferences,
  type OrgRole,
  type ProfileUpdateInput,
  type SubscriptionView,
  type UserView,
} from '../../../lib/contracts';

/** `GET /api/me`: the signed-in user's profile and subscription (SPEC §3 User, Subscription). */
export interface Account {
  user: UserView & { isDemo?: boolean };
  subscription: SubscriptionView;
  /** Teams: the organisation the dashboard acts on and the person's role there (absent after a profile update: unchanged). */
  organisation?: { id: string; role: OrgRole };
}

export const accountKeys = {
  all: ['account'] as const,
  me: () => [...accountKeys.all, 'me'] as const,
  notifications: () => [...accountKeys.all, 'notifications'] as const,
  audits: () => [...accountKeys.all, 'audits'] as const,
  domains: () => [...accountKeys.all, 'domains'] as const,
};

export const meQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.me(), queryFn: ({ signal }) => apiGet<Account>(routePath('get-me'), { signal }) });

export function useMe() {
  return useQuery(meQueryOptions());
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) => apiPut<Account>(routePath('update-me'), input),
    // The update answers without the organisation: keep the one GET /api/me gave.
    onSuccess: (account) => queryClient.setQueryData<Account>(accountKeys.me(), (previous) => ({ ...account, subscription: previous?.subscription ?? account.subscription, organisation: previous?.organisation ?? account.organisation })),
  });
}

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.notifications(),
    queryFn: ({ signal }) => apiGet<NotificationPreferences>(routePath('get-notification-preferences'), { signal }),
  });

export function useNotificationPreferences() {
  return useQuery(notificationsQueryOptions());
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preferences: NotificationPreferences) =>
      apiPut<NotificationPreferences>(routePath('update-notification-preferences'), preferences),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.notifications(), saved),
  });
}

/** `GET /api/me/export`: DECISIONS "Retention and rights" — everything the account holds, as JSON. */
export const exportMyData = (): Promise<unknown> => apiGet<unknown>(routePath('export-my-data'));

/** Teams: the person's role in the organisation the dashboard acts on (their own: owner). */
export function useOrgRole(): OrgRole {
  return useMe().data?.organisation?.role ?? 'owner';
}
