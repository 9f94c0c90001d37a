import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HONEYPOT_FIELD } from '../../../lib/lead-contract';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { LeadForm } from './lead-form';

const AUDIT_ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const LEAD = { auditId: AUDIT_ID, accountCreated: true, leadId: '5e1f3a9b-0c2d-4e6f-8a7b-9c0d1e2f3a4b' };
const SUBMIT = 'Verify Domain & Start Security Scan';


const audit = (status: string, checks: { name: string; status: string; findings?: { severity: string }[] }[] = []) => ({
  status: 200,
  body: {
    audit: {
      id: AUDIT_ID,
      targetUrl: 'https://shop.example.test/',
      host: 'shop.example.test',
      status,
      createdAt: '2026-01-01T00:00:00.000Z',
      checks: checks.map((check) => ({ findings: [], ...check })),
    },
  },
});

function fill(values: Partial<Record<string, string>>) {
  const labels: Record<string, string> = {
    firstName: 'First Name',
    lastName: 'Last Name',
    businessName: 'Business Name',
    webUrl: 'Website URL',
    email: 'Business Email',
    mobileNumber: 'Mobile Number',
  };
  for (const [name, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(labels[name]!), { target: { value } });
  }
}

const owner = {
  firstName: 'Olivia',
  lastName: 'Owner',
  businessName: 'Example Shop',
  webUrl: 'https://shop.example.test',
  email: 'owner@shop.example.test',
  mobileNumber: '0412 345 678',
};

/** Where the form sent the visitor (issue 29 item 9: the report, once the scan has finished). */
function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}
const renderFormWithReport = () =>
  renderWithProviders(
    <Routes>
      <Route path="/" element={<LeadForm />} />
      <Route path="*" element={<Where />} />
    </Routes>,
  );
const where = () => screen.queryByTestId('where')?.textContent;

const tickBoth = () => {
  fireEvent.click(screen.getByRole('checkbox', { name: /authorise a security scan/ }));
  fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }));
};
const submitButton = () => screen.getByRole('button', { name: SUBMIT }) as HTMLButtonElement;

describe('the lead form', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('says on the form that the report is kept in an account, with a link to choose a password (issue 29 item 4)', () => {
    stubApi({});
    renderWithProviders(<LeadForm />);
    expect(screen.getByTestId('account-notice').textContent).toBe(
      'We keep your report in an account for you, under this email. We email you a link to choose a password; no password is sent by email.',
    );
    expect(screen.queryByText(/no signup/i)).toBeNull();
  });

  it('keeps the submit button disabled until both consents are ticked, and opens the legal pages in a new tab', () => {
    // Prepare
    stubApi({});
    renderWithProviders(<LeadForm />);

    // Act
    const initially = submitButton().disabled;
    fireEvent.click(screen.getByRole('checkbox', { name: /authorise a security scan/ }));
    const withOne = submitButton().disabled;
    fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }));
    const withBoth = submitButton().disabled;

    // Assess
    expect([initially, withOne, withBoth]).toEqual([true, true, false]);
    expect(screen.getByRole('heading', { name: 'Get Your Free Security Report' })).toBeTruthy();
    for (const [name, href] of [
      ['Terms of Service', '/terms'],
      ['Privacy Policy', '/privacy'],
    ] as const) {
      const link = screen.getByRole('link', { name });
      expect([link.getAttribute('href'), link.getAttribute('target'), link.getAttribute('rel')]).toEqual([
        href,
        '_blank',
        'noopener noreferrer',
      ]);
    }
  });

  it("says 'All fields are required' and each missing field's own message, sending nothing", async () => {
    // Prepare
    const api = stubApi({});
    renderWithProviders(<LeadForm />);
    fill({ firstName: 'Olivia', email: 'owner@shop.example.test' });
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();

    // Assess
    expect(screen.getByRole('alert').textContent).toBe('All fields are required');
    const messages = ['Last name is required', 'Business name is required', 'Please enter a valid URL', 'Mobile number is required'];
    for (const message of messages) expect(screen.getByText(message)).toBeTruthy();
    expect(screen.queryByText('First name is required')).toBeNull();
    expect(screen.getByLabelText('Last Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Last Name'));
    expect(api.calls).toEqual([]);
  });

  it('names a malformed website, email or mobile number with the field messages', async () => {
    // Prepare
    const api = stubApi({});
    renderWithProviders(<LeadForm />);
    fill({ ...owner, webUrl: 'not a site', email: 'owner-at-shop', mobileNumber: '12' });
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();

    // Assess
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid URL');
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Please enter a valid mobile number')).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('hides the honeypot from people and keyboards and sends it empty with the time the form was shown', async () => {
    // Prepare
    const shownAt = Date.now();
    const api = stubApi({ 'POST /api/leads': { status: 201, body: LEAD }, [`GET /api/audits/${AUDIT_ID}`]: audit('queued') });
    const { container } = renderWithProviders(<LeadForm />);
    const honeypot = container.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`)!;
    await advance(5_000);
    fill(owner);
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();

    // Assess
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(api.callsTo('POST', '/api/leads').map((call) => call.body)).toEqual([
      {
        ...owner,
        agreedToTerms: true,
        agreedToDataCollection: true,
        createAccount: true,
        sendLoginCredentials: true,
        emailVerified: false,
        website: '',
        submittedAt: shownAt,
      },
    ]);
  });

  it('shows each check live (queued → waiting, running, finished) and opens the report when the scan completes', async () => {
    // Prepare
    stubApi({
      'POST /api/leads': { status: 201, body: LEAD },
      [`GET /api/audits/${AUDIT_ID}`]: [
        audit('queued'),
        audit('in_progress', [
          { name: 'dns', status: 'ok' },
          { name: 'tls', status: 'running' },
          { name: 'http', status: 'pending' },
        ]),
        audit('in_progress', [
          { name: 'dns', status: 'ok' },
          { name: 'tls', status: 'ok', findings: [{ severity: 'high' }, { severity: 'info' }] },
          { name: 'http', status: 'running' },
        ]),
        audit('completed', [
          { name: 'dns', status: 'ok' },
          { name: 'tls', status: 'ok', findings: [{ severity: 'high' }] },
          { name: 'http', status: 'timeout' },
        ]),
      ],
    });
    renderFormWithReport();
    fill(owner);
    tickBoth();
    const rows = () => within(screen.getByRole('list', { name: 'Checks' })).getAllByRole('listitem').map((item) => item.textContent);

    // Act
    fireEvent.click(submitButton());
    await advance();
    const queued = [screen.getByTestId('progress-message').textContent, screen.getByTestId('checks-finished').textContent];
    const accountNotice = screen.getByText(/Your report is kept in an account for you/).textContent;
    // A queued audit is asked again after 2 s, a running one every second at first (get-audit.ts auditPollDelay);
    // each answer is rendered a moment after it is asked for.
    await advance(2_100);
    const running = [screen.getByTestId('progress-message').textContent, screen.getByTestId('checks-finished').textContent, rows()];
    await advance(1_000);
    const later = [screen.getByTestId('progress-message').textContent, screen.getByTestId('checks-finished').textContent, rows()];
    const beforeCompletion = where();
    await advance(1_000);

    // Assess
    expect(queued).toEqual(['Starting security audit...', 'Waiting for the scanner to start…']);
    expect(accountNotice).toBe('Your report is kept in an account for you. We are emailing a link to choose your password to owner@shop.example.test.');
    expect(running).toEqual([
      'DNS records: no issues',
      '1 of 3 checks finished',
      ['✓DNS recordsno issues', '…SSL/TLS certificate and protocolschecking…', '…Security headers and HTTPSwaiting'],
    ]);
    expect(later).toEqual([
      'SSL/TLS certificate and protocols: 1 issue',
      '2 of 3 checks finished',
      ['✓DNS recordsno issues', '✓SSL/TLS certificate and protocols1 issue', '…Security headers and HTTPSchecking…'],
    ]);
    expect(beforeCompletion).toBeUndefined();
    expect(where()).toBe(`/results/${AUDIT_ID}`);
    expect([sessionStorage.getItem('submittedWebUrl'), sessionStorage.getItem('currentAuditId')]).toEqual([owner.webUrl, AUDIT_ID]);
  });

  it("keeps a passive same-domain lead on the form to read where its code went, with the report's link; the form starts empty again", async () => {
    // Prepare
    stubApi({
      'POST /api/leads': { status: 201, body: { ...LEAD, accountCreated: false, confirmAddress: { email: 'owner@shop.example.test' } } },
      [`GET /api/audits/${AUDIT_ID}`]: audit('completed', [{ name: 'dns', status: 'ok' }]),
    });
    renderFormWithReport();
    fill(owner);
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();
    await advance();

    // Assess
    expect(where()).toBeUndefined();
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe(
      'Passive scan completed. We emailed a code to owner@shop.example.test: type it on the report to run the full scan.',
    );
    expect(screen.getByRole('link', { name: 'View Security Report' }).getAttribute('href')).toBe(`/results/${AUDIT_ID}`);
    fireEvent.click(screen.getByRole('button', { name: 'Scan another website' }));
    expect((screen.getByLabelText('Business Email') as HTMLInputElement).value).toBe('');
  });

  it("cycles the spec's messages every 1.2 s while checks run and nothing newer is known", async () => {
    // Prepare
    stubApi({
      'POST /api/leads': { status: 201, body: { ...LEAD, accountCreated: false } },
      [`GET /api/audits/${AUDIT_ID}`]: audit('in_progress'),
    });
    renderWithProviders(<LeadForm />);
    fill(owner);
    tickBoth();
    fireEvent.click(submitButton());
    await advance();

    // Act
    const seen: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      seen.push(screen.getByTestId('progress-message').textContent);
      await advance(1_200);
    }

    // Assess
    expect(seen).toEqual([
      'Analyzing network security...',
      'Checking for vulnerabilities...',
      'Scanning exposed services...',
      'Analyzing network security...',
    ]);
    expect(screen.queryByText(/Your report is kept in an account for you/)).toBeNull();
  });

  it('opens the report of an existing account\'s lead as soon as its scan has completed', async () => {
    // Prepare
    stubApi({
      'POST /api/leads': { status: 201, body: { ...LEAD, accountCreated: false } },
      [`GET /api/audits/${AUDIT_ID}`]: audit('completed', [{ name: 'dns', status: 'ok' }]),
    });
    renderFormWithReport();
    fill(owner);
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();
    await advance();

    // Assess
    expect(where()).toBe(`/results/${AUDIT_ID}`);
  });

  it('opens the verification modal for an email at another domain, then submits again as verified and opens the report', async () => {
    // Prepare
    const consultant = { ...owner, email: 'ada@gmail.test' };
    const api = stubApi({
      'POST /api/leads': [
        { status: 403, body: { error: 'verification_required', message: 'Your email address is not at this website’s domain.' } },
        { status: 201, body: LEAD },
      ],
      'POST /api/verification-codes': { status: 201, body: { verificationId: 'v-1' } },
      'POST /api/verification-codes/verify': { status: 200, body: { verified: true } },
      [`GET /api/audits/${AUDIT_ID}`]: [audit('queued'), audit('completed')],
    });
    renderFormWithReport();
    fill(consultant);
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();
    const dialog = screen.getByRole('dialog', { name: 'Verify your email address' });
    fireEvent.change(within(dialog).getByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify Code' }));
    await advance();
    await advance(1_500);

    // Assess
    expect(api.callsTo('POST', '/api/verification-codes').map((c) => c.body)).toEqual([
      { email: 'ada@gmail.test', firstName: 'Olivia', webUrl: 'https://shop.example.test', businessName: 'Example Shop' },
    ]);
    const leads = api.callsTo('POST', '/api/leads').map((c) => (c.body as { emailVerified: boolean; email: string }));
    expect(leads.map((lead) => [lead.email, lead.emailVerified])).toEqual([
      ['ada@gmail.test', false],
      ['ada@gmail.test', true],
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('progress-message').textContent).toBe('Starting security audit...');
    expect(sessionStorage.getItem('currentAuditId')).toBe(AUDIT_ID);
    // Queued: asked again after 2 s (get-audit.ts auditPollDelay).
    await advance(2_100);
    expect(where()).toBe(`/results/${AUDIT_ID}`);
  });

  it("shows the error panel with 'HTTP {status}' when the API fails without a message, and Try Again keeps the details", async () => {
    // Prepare
    stubApi({ 'POST /api/leads': { status: 502, body: '<html>Bad gateway</html>' } });
    renderWithProviders(<LeadForm />);
    fill(owner);
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();
    const panel = screen.getByRole('alert').textContent;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));

    // Assess
    expect(panel).toContain('Sorry, there was an error processing your request. Please try again.');
    expect(panel).toContain('HTTP 502');
    expect((screen.getByLabelText('Business Email') as HTMLInputElement).value).toBe(owner.email);
  });

  it("shows the server's message when it refuses for too many requests, and opens the report of a scan that failed", async () => {
    // Prepare
    stubApi({
      'POST /api/leads': [
        { status: 429, body: { error: 'rate_limited', message: 'Too many scan requests. Please try again in 40 minutes.' } },
        { status: 201, body: LEAD },
      ],
      [`GET /api/audits/${AUDIT_ID}`]: { status: 200, body: { audit: { ...audit('failed').body.audit, errorMessage: 'The site could not be resolved.' } } },
    });
    renderFormWithReport();
    fill(owner);
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();
    const limited = screen.getByRole('alert').textContent;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    fireEvent.click(submitButton());
    await advance();
    await advance();

    // Assess
    expect(limited).toContain('Too many scan requests. Please try again in 40 minutes.');
    // The failed scan's reason is shown on its report (issue 29 item 9).
    expect(where()).toBe(`/results/${AUDIT_ID}`);
  });

  it("shows 'An unexpected error occurred' in the error panel when the request never gets an answer", async () => {
    // Prepare
    stubApi({
      'POST /api/leads': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderWithProviders(<LeadForm />);
    fill(owner);
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();

    // Assess
    const panel = screen.getByRole('alert');
    expect(within(panel).getByRole('heading').textContent).toBe('Sorry, there was an error processing your request. Please try again.');
    expect(within(panel).getByText('An unexpected error occurred')).toBeTruthy();
  });

  it("names each unticked consent with its own message when the form is sent without it, sending nothing", async () => {
    // Prepare: the button stays disabled, but a form can still be submitted (a script, an assistive tool).
    const api = stubApi({});
    renderWithProviders(<LeadForm />);
    fill(owner);
    const terms = screen.getByRole('checkbox', { name: /authorise a security scan/ });

    // Act
    fireEvent.submit(submitButton().closest('form')!);
    await advance();
    const summary = screen.getByRole('alert').textContent;
    const describedBy = terms.getAttribute('aria-describedby');
    const termsMessage = describedBy ? document.getElementById(describedBy)?.textContent : undefined;
    fireEvent.click(terms);

    // Assess
    expect(summary).toBe('Please agree to the terms and privacy policy');
    expect(termsMessage).toBe('You must agree to the terms and conditions');
    // Ticking the box clears its message.
    expect(screen.queryByText('You must agree to the terms and conditions')).toBeNull();
    expect(screen.getByText('You must agree to the privacy policy and data collection')).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it("says 'Failed to send verification email. Please try again.' on the form when the modal could not send the code", async () => {
    // Prepare
    const api = stubApi({
      'POST /api/leads': { status: 403, body: { error: 'verification_required', message: 'Your email address is not at this website’s domain.' } },
      'POST /api/verification-codes': { status: 502, body: { error: 'email_unavailable', message: 'The email service did not answer.' } },
    });
    renderWithProviders(<LeadForm />);
    fill({ ...owner, email: 'ada@gmail.test' });
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();
    const dialog = screen.getByRole('dialog', { name: 'Verify your email address' });
    const modalAlert = within(dialog).getByRole('alert').textContent;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // Assess
    expect(modalAlert).toContain('Failed to send verification code');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Failed to send verification email. Please try again.');
    expect(api.callsTo('POST', '/api/leads')).toHaveLength(1);
  });

  it("puts the server's field messages on the fields when it refuses the lead", async () => {
    // Prepare
    stubApi({
      'POST /api/leads': {
        status: 400,
        body: { error: 'validation_failed', message: 'Please enter a valid mobile number', fields: { mobileNumber: 'Please enter a valid mobile number' } },
      },
    });
    renderWithProviders(<LeadForm />);
    fill(owner);
    tickBoth();

    // Act
    fireEvent.click(submitButton());
    await advance();

    // Assess
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid mobile number');
    expect(screen.getByLabelText('Mobile Number').getAttribute('aria-invalid')).toBe('true');
  });
});
