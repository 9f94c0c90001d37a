import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { policyMessages, type SecurityPolicyView, type VulnerabilityView } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { FindingPolicyPanel, type ReportPolicies, useReportPolicies } from './finding-policy';
import { endOfDay } from './policy-dialog';
import { VulnerabilitiesList } from './vulnerabilities-list';

const DOMAIN = 'shop.example.test';
const FINDING = { id: 'http.csp.missing', title: 'No Content Security Policy' };
const PUT_PATH = `/api/me/policies/${DOMAIN}/${FINDING.id}`;

const policy = (overrides: Partial<SecurityPolicyView> = {}): SecurityPolicyView => ({
  domain: DOMAIN,
  findingId: FINDING.id,
  action: 'accept',
  reason: 'Third-party widget needs inline script',
  expiresAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  createdBy: 'ada@example.test',
  active: true,
  ...overrides,
});

const access = (overrides: Partial<ReportPolicies> = {}): ReportPolicies => ({ domain: DOMAIN, byFinding: new Map(), canManage: true, domainVerified: true, ...overrides });

/** A local day `days` ahead, as the date input holds it. */
const dayAhead = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};

const reason = () => screen.getByLabelText('Reason') as HTMLTextAreaElement;

describe('a finding’s security policy on the owner’s report', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('mutes a finding until a day: the reason is checked first, then the policy is sent and the dialog closes', async () => {
    // Prepare
    const api = stubApi({ [`PUT ${PUT_PATH}`]: { status: 201, body: { policy: policy({ action: 'mute' }) } } });
    renderWithProviders(<FindingPolicyPanel finding={FINDING} policies={access()} />);

    // Act: too short a reason, then a good one with a day.
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    const dialog = screen.getByRole('dialog', { name: 'Mute finding' });
    fireEvent.change(reason(), { target: { value: ' no ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save policy' }));
    const refused = within(dialog).getByText(policyMessages.reason);
    const callsAfterRefusal = api.calls.length;
    fireEvent.change(reason(), { target: { value: '  Fix ships with the March release  ' } });
    fireEvent.change(within(dialog).getByLabelText('Mute until (optional)'), { target: { value: dayAhead(30) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save policy' }));

    // Assess
    expect(refused).toBeTruthy();
    expect(callsAfterRefusal).toBe(0);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PUT', PUT_PATH).map((c) => c.body)).toEqual([
      { action: 'mute', reason: 'Fix ships with the March release', expiresAt: endOfDay(dayAhead(30)) },
    ]);
  });

  it('accepts a risk without an expiry field, and shows the API’s refusal in the dialog', async () => {
    // Prepare
    stubApi({ [`PUT ${PUT_PATH}`]: { status: 403, body: { error: 'plan_required', message: policyMessages.planRequired } } });
    renderWithProviders(<FindingPolicyPanel finding={FINDING} policies={access()} />);

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Accept risk' }));
    const dialog = screen.getByRole('dialog', { name: 'Accept risk' });
    fireEvent.change(reason(), { target: { value: 'Widget vendor cannot support CSP yet' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save policy' }));

    // Assess
    expect(within(dialog).queryByLabelText('Mute until (optional)')).toBeNull();
    expect(within(dialog).getByText(policyMessages.scoreUnchanged)).toBeTruthy();
    expect((await within(dialog).findByRole('alert')).textContent).toBe(policyMessages.planRequired);
  });

  it('shows the current policy and removes it', async () => {
    // Prepare
    const api = stubApi({ [`DELETE ${PUT_PATH}`]: { status: 204 } });
    renderWithProviders(<FindingPolicyPanel finding={FINDING} policies={access({ byFinding: new Map([[FINDING.id, policy()]]) })} />);

    // Act
    const summary = screen.getByTestId('policy-summary').textContent;
    fireEvent.click(screen.getByRole('button', { name: 'Remove policy' }));

    // Assess
    expect(summary).toBe('Accepted risk: Third-party widget needs inline script');
    await waitFor(() => expect(api.callsTo('DELETE', PUT_PATH)).toHaveLength(1));
  });

  it('offers an upgrade instead of the actions without the plan, and asks to verify an unverified domain', () => {
    stubApi({});
    const { unmount } = renderWithProviders(<FindingPolicyPanel finding={FINDING} policies={access({ canManage: false })} />);

    expect(screen.getByText(policyMessages.planRequired, { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View plans' }).getAttribute('href')).toBe('/dashboard/subscription');
    expect(screen.queryByRole('button', { name: 'Accept risk' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mute' })).toBeNull();
    unmount();

    renderWithProviders(<FindingPolicyPanel finding={FINDING} policies={access({ domainVerified: false })} />);
    expect(screen.getByRole('link', { name: 'Settings → Domains' }).getAttribute('href')).toBe('/dashboard/settings?tab=domains');
    expect(screen.queryByRole('button', { name: 'Mute' })).toBeNull();
  });
});

describe('the report’s findings with the owner’s policies', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const vulnerability: VulnerabilityView = {
    id: FINDING.id,
    title: FINDING.title,
    severity: 'medium',
    category: 'Web Security',
    description: 'Why it matters',
    recommendation: 'How to fix it',
  };

  function Report({ owner }: { owner: boolean }) {
    const policies = useReportPolicies(`www.${DOMAIN}`, owner);
    return <VulnerabilitiesList vulnerabilities={[vulnerability]} technologies={[]} limit={5} policies={policies} />;
  }

  it('marks a finding with its policy in the dashboard, muted until a day', async () => {
    // Prepare
    const until = '2027-03-05T12:59:59.999Z';
    stubApi({
      'GET /api/me/policies': { status: 200, body: { policies: [policy({ action: 'mute', expiresAt: until })], canManage: true } },
      'GET /api/me/domains': { status: 200, body: { domains: [{ id: 'd1', domain: DOMAIN, verified: true }] } },
    });

    // Act
    renderWithProviders(<Report owner />);
    const chip = await screen.findByText('Muted');
    fireEvent.click(screen.getByRole('button', { name: new RegExp(FINDING.title) }));

    // Assess
    expect(chip).toBeTruthy();
    expect(screen.getByTestId('policy-summary').textContent).toBe(`Muted until ${new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(until))}: Third-party widget needs inline script`);
    expect(screen.getByRole('button', { name: 'Remove policy' })).toBeTruthy();
  });

  it('reads no policies outside the dashboard (public and shared reports)', () => {
    const api = stubApi({});

    renderWithProviders(<Report owner={false} />);

    expect(api.calls).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Security policy' })).toBeNull();
  });
});
