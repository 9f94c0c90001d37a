import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { ApiError, setActingOrganisation } from '../../../lib/api-client';
import type { ClientOverview } from '../../../lib/contracts';
import { useOrgRole } from '../../account/api/account';
import { useBranding, useProviderOverview, useSaveBranding } from './api/clients';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const muted = 'text-sm text-slate-600 dark:text-slate-400';
const cell = 'px-2 py-1 text-left';

export const clientsMessages = {
  saved: 'Branding saved: your clients’ reports now carry it.',
  saveFailed: 'Failed to save the branding. Please try again.',
  logoType: 'Choose a PNG image.',
} as const;

const shortDate = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' }) : 'Never');

/**
 * IT providers (issue 22 item 3): for an organisation that manages others, one overview of its
 * clients (each domain's latest grade and overdue issues) with a way into each, and the branding its
 * clients' reports carry. Hidden for an organisation without clients.
 */
export function ClientsSection() {
  const overview = useProviderOverview();
  const clients = overview.data?.clients ?? [];
  if (clients.length === 0) return null;
  return (
    <section aria-labelledby="your-clients" className={card}>
      <h2 id="your-clients" className="text-lg font-semibold">
        Your clients
      </h2>
      <p className={muted}>The organisations you manage as their IT provider: each domain’s latest grade and its issues past their time-to-fix target.</p>
      <ul className="mt-3 space-y-4">
        {clients.map((client) => (
          <ClientRow key={client.orgId} client={client} />
        ))}
      </ul>
      <BrandingForm />
    </section>
  );
}

function ClientRow({ client }: { client: ClientOverview }) {
  const queryClient = useQueryClient();
  return (
    <li className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold">
          {client.name} <span className={muted}>· worst grade {client.worstGrade ?? '—'} · {client.overdue} overdue</span>
        </p>
        <Button
          variant="secondary"
          onClick={() => {
            setActingOrganisation(client.orgId);
            void queryClient.resetQueries();
          }}
        >
          Open {client.name}
        </Button>
      </div>
      {client.domains.length > 0 && (
        <table className="mt-2 w-full text-sm">
          <caption className="sr-only">{client.name}: domains</caption>
          <thead>
            <tr>
              <th className={cell}>Domain</th>
              <th className={cell}>Grade</th>
              <th className={cell}>Last scan</th>
              <th className={cell}>Overdue</th>
            </tr>
          </thead>
          <tbody>
            {client.domains.map((domain) => (
              <tr key={domain.domain}>
                <td className={cell}>{domain.domain}</td>
                <td className={cell}>{domain.grade ?? '—'}</td>
                <td className={cell}>{shortDate(domain.lastScanAt)}</td>
                <td className={cell}>{domain.overdue}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

function BrandingForm() {
  const role = useOrgRole();
  const canEdit = role !== 'viewer';
  const branding = useBranding(true);
  const save = useSaveBranding();
  const colourId = useId();
  const logoId = useId();
  const [name, setName] = useState('');
  const [colour, setColour] = useState('#1d4d9e');
  const [logo, setLogo] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'error' | 'success'; text: string } | undefined>();

  useEffect(() => {
    if (!branding.data) return;
    setName(branding.data.name);
    setColour(branding.data.colour);
    setLogo(branding.data.logo);
  }, [branding.data]);

  const pickLogo = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (file.type !== 'image/png') {
      setOutcome({ tone: 'error', text: clientsMessages.logoType });
      return;
    }
    const reader = new FileReader();
    reader.onload = () => setLogo(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(undefined);
    save.mutate(
      { name: name.trim(), colour, logo },
      {
        onSuccess: () => setOutcome({ tone: 'success', text: clientsMessages.saved }),
        onError: (error) => setOutcome({ tone: 'error', text: error instanceof ApiError && error.status < 500 ? error.message : clientsMessages.saveFailed }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="mt-5 space-y-3 border-t border-slate-200 pt-4 dark:border-slate-700">
      <h3 className="font-semibold">Report branding</h3>
      <p className={muted}>Your clients’ PDF reports and report emails carry your name, colour and logo (a PNG of at most 64 KB).</p>
      <TextField label="Name on reports" name="brandingName" value={name} onChange={(event) => setName(event.target.value)} disabled={!canEdit} required />
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor={colourId} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
            Colour
          </label>
          <input id={colourId} type="color" value={colour} onChange={(event) => setColour(event.target.value)} disabled={!canEdit} className="mt-1 h-9 w-16" />
        </div>
        <div>
          <label htmlFor={logoId} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
            Logo (PNG)
          </label>
          <input id={logoId} type="file" accept="image/png" onChange={pickLogo} disabled={!canEdit} className="mt-1 text-sm" />
        </div>
        {logo && <img src={logo} alt="Your logo" className="h-10 w-auto" />}
      </div>
      {canEdit && (
        <Button type="submit" disabled={save.isPending || name.trim() === ''}>
          {save.isPending ? 'Saving...' : 'Save branding'}
        </Button>
      )}
      {outcome && <FormMessage tone={outcome.tone}>{outcome.text}</FormMessage>}
    </form>
  );
}
