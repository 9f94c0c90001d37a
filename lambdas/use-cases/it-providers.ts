import type { Deps } from '../composition.js';
import { siteKey } from '../domain/target.js';
import { clientOverview, parseBranding } from '../domain/it-providers.js';
import type { ProviderBranding, ProviderOverview } from '../domain/it-provider.contract.js';
import type { Acting } from '../domain/organisations.js';

/**
 * IT providers (issue 22 item 3; the rules are in lambdas/domain/it-providers.ts): the provider's
 * branding and its overview of its clients. Imports no other use case; audit and monthly reports
 * import `brandingOfClient` from here.
 */

/** The acting organisation's branding as its clients' reports carry it (null: none set). */
export async function getBranding(deps: Pick<Deps, 'organisations'>, acting: Acting): Promise<ProviderBranding | null> {
  return (await deps.organisations.getBranding(acting.orgId)) ?? null;
}

export async function saveBranding(deps: Pick<Deps, 'organisations' | 'clock'>, acting: Acting, input: unknown): Promise<ProviderBranding> {
  const branding = parseBranding(input, deps.clock.now());
  await deps.organisations.putBranding(acting.orgId, branding);
  return branding;
}

/**
 * The branding a client organisation's reports carry: its oldest provider's that set one (a client
 * with several providers gets one branding, the same every time); undefined: the product's own.
 */
export async function brandingOfClient(deps: Pick<Deps, 'organisations'>, clientId: string | undefined): Promise<ProviderBranding | undefined> {
  if (!clientId) return undefined;
  for (const link of await deps.organisations.listProviders(clientId)) {
    const branding = await deps.organisations.getBranding(link.providerId);
    if (branding) return branding;
  }
  return undefined;
}

/**
 * `GET /api/me/provider/clients`: every client of the acting organisation, each domain's latest
 * completed scan grade and its issues overdue on time-to-fix. Only the acting organisation's own
 * clients: the list comes from its links, each checked against the client's item.
 */
export async function providerOverview(deps: Pick<Deps, 'organisations' | 'domains' | 'audits' | 'issueHistory' | 'clock'>, acting: Acting): Promise<ProviderOverview> {
  const now = deps.clock.now();
  const links = await deps.organisations.listClients(acting.orgId);
  const clients = await Promise.all(
    links.map(async (link) => {
      const [domains, histories] = await Promise.all([deps.domains.list(link.clientId), deps.issueHistory.list(link.clientId)]);
      const names = domains.map((record) => record.domain);
      const latest = new Map(
        await Promise.all(names.map(async (domain) => [domain, (await deps.audits.completedScansOfSite(siteKey(domain), { ownerId: link.clientId, limit: 1 }))[0]] as const)),
      );
      return clientOverview(link, names, latest, histories, now);
    }),
  );
  return { clients };
}
