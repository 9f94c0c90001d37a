import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { ApiError, setActingOrganisation } from '../../../lib/api-client';
import { INVITATION_DAYS, INVITATION_ROLE_LABELS, invitationRoles, memberRoles, ROLE_LABELS, type InvitationRole, type MemberRole, type MemberView } from '../../../lib/contracts';
import { useAccessLog, useChangeRole, useInvitations, useInvite, useLeaveOrganisation, useMembers, useProviders, useRemoveMember, useRemoveProvider, useRevokeInvitation } from '../../account/api/team';
import { DangerButton, LoadingState, SettingsPanel } from './panel';

export const teamTabMessages = {
  loadFailed: 'Failed to load the team. Please try again.',
  inviteFailed: 'Failed to send the invitation. Please try again.',
  changeFailed: 'Failed to change the role. Please try again.',
  removeFailed: 'Failed to remove the member. Please try again.',
  leaveFailed: 'Failed to leave the organisation. Please try again.',
  noInvitations: 'No pending invitations.',
  invited: (email: string) => `Invitation sent to ${email}.`,
} as const;

const messageOf = (error: unknown, fallback: string): string => (error instanceof ApiError && error.status < 500 ? error.message : fallback);

const day = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

const selectClass =
  'mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:outline-2 focus:outline-blue-700 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100';

/** Settings → Team (issue 22 item 2): the organisation's members and roles; the owner invites, changes roles and removes. */
export function TeamTab() {
  const members = useMembers();
  if (members.isPending) return <LoadingState label="Loading your team..." />;
  if (members.isError) return <FormMessage tone="error">{teamTabMessages.loadFailed}</FormMessage>;
  const isOwner = members.data.role === 'owner';

  return (
    <div className="space-y-6">
      {isOwner && <InviteForm />}
      <SettingsPanel
        title="Members"
        description={
          isOwner
            ? 'Admins manage domains, scans, policies, agents, API tokens and alert destinations; viewers read reports. Billing and members stay with you.'
            : `You are ${members.data.role === 'admin' ? 'an' : 'a'} ${members.data.role} in this organisation.`
        }
      >
        <ul className="divide-y divide-slate-200 dark:divide-slate-700">
          {members.data.members.map((member) => (
            <MemberRow key={member.memberId} member={member} editable={isOwner && member.role !== 'owner'} />
          ))}
        </ul>
      </SettingsPanel>
      {isOwner ? <PendingInvitations /> : <LeavePanel />}
      {isOwner && <ProvidersPanel />}
      {members.data.role !== 'viewer' && <AccessLogPanel />}
    </div>
  );
}

function InviteForm() {
  const invite = useInvite();
  const roleId = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitationRole>('viewer');
  const [outcome, setOutcome] = useState<{ tone: 'error' | 'success'; text: string } | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(undefined);
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: ({ invitation }) => {
          setEmail('');
          setOutcome({ tone: 'success', text: teamTabMessages.invited(invitation.email) });
        },
        onError: (error) => setOutcome({ tone: 'error', text: messageOf(error, teamTabMessages.inviteFailed) }),
      },
    );
  };

  return (
    <SettingsPanel title="Invite a member" description={`They get an email with a link that works once, for ${INVITATION_DAYS} days, and sign in as themselves.`}>
      <form onSubmit={submit} noValidate className="space-y-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <TextField label="Email address" className="flex-1" name="email" type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} required />
          <div>
            <label htmlFor={roleId} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
              Role
            </label>
            <select id={roleId} value={role} onChange={(event) => setRole(event.target.value as InvitationRole)} className={selectClass}>
              {invitationRoles.map((option) => (
                <option key={option} value={option}>
                  {INVITATION_ROLE_LABELS[option]}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" disabled={invite.isPending || email.trim() === ''}>
            {invite.isPending ? 'Sending...' : 'Send invitation'}
          </Button>
        </div>
        {outcome && <FormMessage tone={outcome.tone}>{outcome.text}</FormMessage>}
      </form>
    </SettingsPanel>
  );
}

function MemberRow({ member, editable }: { member: MemberView; editable: boolean }) {
  const change = useChangeRole();
  const remove = useRemoveMember();
  const roleId = useId();
  const [failure, setFailure] = useState<string | undefined>();

  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="font-semibold text-slate-900 dark:text-slate-100">
          {member.email}
          {member.you && <span className="ml-2 text-sm font-normal text-slate-500 dark:text-slate-400">(you)</span>}
        </p>
        {member.addedAt && <p className="text-sm text-slate-600 dark:text-slate-400">Since {day(member.addedAt)}</p>}
      </div>
      {editable ? (
        <div className="flex items-end gap-2">
          <div>
            <label htmlFor={roleId} className="sr-only">
              {`Role of ${member.email}`}
            </label>
            <select
              id={roleId}
              value={member.role}
              disabled={change.isPending}
              onChange={(event) =>
                change.mutate({ memberId: member.memberId, role: event.target.value as MemberRole }, { onError: (error) => setFailure(messageOf(error, teamTabMessages.changeFailed)) })
              }
              className={selectClass}
            >
              {memberRoles.map((option) => (
                <option key={option} value={option}>
                  {ROLE_LABELS[option]}
                </option>
              ))}
            </select>
          </div>
          <DangerButton
            aria-label={`Remove ${member.email}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate(member.memberId, { onError: (error) => setFailure(messageOf(error, teamTabMessages.removeFailed)) })}
          >
            Remove
          </DangerButton>
        </div>
      ) : (
        <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200">{ROLE_LABELS[member.role]}</span>
      )}
      {failure && <FormMessage tone="error">{failure}</FormMessage>}
    </li>
  );
}

function PendingInvitations() {
  const invitations = useInvitations(true);
  const revoke = useRevokeInvitation();
  return (
    <SettingsPanel title="Pending invitations">
      {invitations.isPending ? (
        <LoadingState label="Loading invitations..." />
      ) : invitations.isError ? (
        <FormMessage tone="error">{teamTabMessages.loadFailed}</FormMessage>
      ) : invitations.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{teamTabMessages.noInvitations}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-700">
          {invitations.data.map((invitation) => (
            <li key={invitation.id} className="flex items-center justify-between gap-3 py-3">
              <div>
                <p className="font-semibold text-slate-900 dark:text-slate-100">{invitation.email}</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {INVITATION_ROLE_LABELS[invitation.role]} · expires {day(invitation.expiresAt)}
                </p>
              </div>
              <Button variant="secondary" aria-label={`Revoke the invitation of ${invitation.email}`} disabled={revoke.isPending} onClick={() => revoke.mutate(invitation.id)}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </SettingsPanel>
  );
}

/** IT providers (issue 22 item 3): who manages this organisation as its IT provider; shown once there is one. */
function ProvidersPanel() {
  const providers = useProviders(true);
  const remove = useRemoveProvider();
  if (!providers.data || providers.data.length === 0) return null;
  return (
    <SettingsPanel title="IT providers" description="Their team acts here as admins and your reports carry their branding. Billing and members stay with you.">
      <ul className="divide-y divide-slate-200 dark:divide-slate-700">
        {providers.data.map((provider) => (
          <li key={provider.providerId} className="flex items-center justify-between gap-3 py-3">
            <div>
              <p className="font-semibold text-slate-900 dark:text-slate-100">{provider.name}</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">IT provider since {day(provider.linkedAt)}</p>
            </div>
            <Button variant="secondary" aria-label={`Remove ${provider.name} as your IT provider`} disabled={remove.isPending} onClick={() => remove.mutate(provider.providerId)}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
    </SettingsPanel>
  );
}

/** How many of the access log's events the tab shows (the API answers up to 100). */
const ACCESS_LOG_SHOWN = 20;

/**
 * Issue 28 (access ends with membership): who made and revoked API tokens, who was removed or left,
 * which IT provider was unlinked and what followed (tokens revoked, destinations disabled, the
 * enrolment secret rotated). For the owner and admins; nothing while there is none (or it fails).
 */
function AccessLogPanel() {
  const log = useAccessLog(true);
  if (!log.data || log.data.length === 0) return null;
  return (
    <SettingsPanel title="Access log" description="API tokens made and revoked, members removed or left, IT providers removed, and what ended with them.">
      <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-700">
        {log.data.slice(0, ACCESS_LOG_SHOWN).map((event) => (
          <li key={event.id} className="py-2">
            <p className="font-semibold text-slate-900 dark:text-slate-100">{event.label}</p>
            <p className="break-all text-slate-600 dark:text-slate-400">
              {event.subject} · by {event.actor} · {day(event.at)}
            </p>
          </li>
        ))}
      </ul>
    </SettingsPanel>
  );
}

function LeavePanel() {
  const leave = useLeaveOrganisation();
  const [failure, setFailure] = useState<string | undefined>();
  return (
    <SettingsPanel title="Leave this organisation" description="You lose access to its reports at once; an owner can invite you again.">
      <DangerButton
        disabled={leave.isPending}
        onClick={() =>
          leave.mutate(undefined, {
            onSuccess: () => {
              // Back to the person's own organisation.
              setActingOrganisation(undefined);
              window.location.assign(paths.dashboard.root.getHref());
            },
            onError: (error) => setFailure(messageOf(error, teamTabMessages.leaveFailed)),
          })
        }
      >
        Leave organisation
      </DangerButton>
      {failure && (
        <div className="mt-3">
          <FormMessage tone="error">{failure}</FormMessage>
        </div>
      )}
    </SettingsPanel>
  );
}
