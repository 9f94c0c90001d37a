import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiPut } from '../../../lib/api-client';
import { routePath, type InvitationRole, type InvitationView, type MemberRole, type MemberView, type OrganisationView, type OrgRole } from '../../../lib/contracts';

/** Teams (issue 22 item 2): the acting organisation's members and invitations, and the person's organisations. */
export const teamKeys = {
  all: ['team'] as const,
  members: () => [...teamKeys.all, 'members'] as const,
  invitations: () => [...teamKeys.all, 'invitations'] as const,
  organisations: () => [...teamKeys.all, 'organisations'] as const,
  providers: () => [...teamKeys.all, 'providers'] as const,
  accessLog: () => [...teamKeys.all, 'access-log'] as const,
};

/** Issue 28 (access ends with membership): one line of the organisation's access log. */
export interface AccessLogEvent {
  id: string;
  at: string;
  kind: string;
  label: string;
  actor: string;
  subject: string;
}

/** The owner and admins read the access log: the query is off for viewers. */
export const useAccessLog = (enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.accessLog(),
    queryFn: ({ signal }) => apiGet<{ events: AccessLogEvent[] }>(routePath('list-org-access-log'), { signal }).then((answer) => answer.events),
    enabled,
  });

/** IT providers (issue 22 item 3): an organisation's providers, as its owner sees them. */
export interface ProviderView {
  providerId: string;
  name: string;
  linkedAt: string;
}

export interface MemberList {
  role: OrgRole;
  members: MemberView[];
}

export const membersQueryOptions = () => queryOptions({ queryKey: teamKeys.members(), queryFn: ({ signal }) => apiGet<MemberList>(routePath('list-org-members'), { signal }) });

export const useMembers = () => useQuery(membersQueryOptions());

/** Only the owner may list invitations: the query is off for everyone else. */
export const useInvitations = (enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.invitations(),
    queryFn: ({ signal }) => apiGet<{ invitations: InvitationView[] }>(routePath('list-org-invitations'), { signal }).then((answer) => answer.invitations),
    enabled,
  });

export const organisationsQueryOptions = () =>
  queryOptions({
    queryKey: teamKeys.organisations(),
    queryFn: ({ signal }) => apiGet<{ organisations: OrganisationView[] }>(routePath('list-my-organisations'), { signal }).then((answer) => answer.organisations),
  });

export const useMyOrganisations = () => useQuery(organisationsQueryOptions());

function useTeamMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }) });
}

export const useInvite = () =>
  useTeamMutation((input: { email: string; role: InvitationRole }) => apiPost<{ invitation: InvitationView }>(routePath('create-org-invitation'), input));
export const useRevokeInvitation = () => useTeamMutation((invitationId: string) => apiDelete(routePath('revoke-org-invitation', { invitationId })));
export const useChangeRole = () =>
  useTeamMutation(({ memberId, role }: { memberId: string; role: MemberRole }) => apiPut<{ member: MemberView }>(routePath('update-org-member', { memberId }), { role }));
export const useRemoveMember = () => useTeamMutation((memberId: string) => apiDelete(routePath('remove-org-member', { memberId })));
/** Only the owner lists and removes IT providers: the query is off for everyone else. */
export const useProviders = (enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.providers(),
    queryFn: ({ signal }) => apiGet<{ providers: ProviderView[] }>(routePath('list-org-providers'), { signal }).then((answer) => answer.providers),
    enabled,
  });
export const useRemoveProvider = () => useTeamMutation((providerId: string) => apiDelete(routePath('remove-org-provider', { providerId })));
export const useLeaveOrganisation = () => useTeamMutation(() => apiDelete(routePath('leave-organisation')));

/** `POST /api/invitations/accept` with the mailed token. */
export const acceptInvitation = (token: string): Promise<{ organisation: OrganisationView }> => apiPost(routePath('accept-invitation'), { token });
