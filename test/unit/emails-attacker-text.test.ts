import { describe, expect, it } from 'vitest';
import { verificationCodeEmail } from '../../lambdas/domain/emails.js';
import { invitationEmail } from '../../lambdas/domain/organisations.js';
import { supportAcknowledgementEmail, type SupportRequestRecord, supportTeamEmail } from '../../lambdas/domain/support.js';

/**
 * Issue 28 findings 5, 9, 16: our mail carries no attacker's words in its subject; names from outside
 * are shown quoted in the body, after our own wording, never as a line of their own.
 */

const brand = { productName: 'Rampart', siteUrl: 'https://rampart.example' };
const PHISH = 'Microsoft 365 Security: your mailbox is suspended, sign in at https://evil.example/login';

describe('the invitation emails', () => {
  for (const role of ['viewer', 'admin', 'provider'] as const) {
    it(`a ${role} invitation: a fixed subject, the organisation quoted after our wording`, () => {
      const mail = invitationEmail(brand, { to: 'victim@example.test', orgName: PHISH, inviterEmail: 'mallory@evil.example', role, token: 'inv_x' });
      expect(mail.subject).toBe(role === 'provider' ? 'You are asked to be an IT provider on Rampart' : 'You are invited to join an organisation on Rampart');
      expect(mail.subject).not.toContain('Microsoft');
      expect(mail.text).toContain(`the organisation “${PHISH}”`);
      expect(mail.html).toContain(`the organisation “${PHISH.replace(/&/g, '&amp;')}”`);
      // No line starts with the organisation's name.
      for (const line of mail.text.split('\n')) expect(line.startsWith('Microsoft')).toBe(false);
    });
  }

  it('flattens a name stored before the contract refused line breaks and text-direction marks', () => {
    const mail = invitationEmail(brand, { to: 'v@example.test', orgName: 'Acme\r\nYour account is locked \u202Emoc.live', inviterEmail: 'a@acme.example', role: 'viewer', token: 'inv_x' });
    expect(mail.subject).toBe('You are invited to join an organisation on Rampart');
    expect(mail.text).toContain('the organisation “Acme Your account is locked moc.live”');
    expect(mail.text).not.toMatch(/\r|\u202E/);
    expect(mail.text.split('\n').some((line) => line.startsWith('Your account'))).toBe(false);
  });
});

describe('the verification code email', () => {
  it('does not carry the requester’s first name: a stranger may type anything there for any address', () => {
    const mail = verificationCodeEmail(brand, { to: 'victim@example.test', firstName: 'Your account is locked. Call +1-555-0100 now', code: '042917', site: 'example.com', validMinutes: 10 });
    expect(mail.subject).toBe('Your Rampart verification code');
    expect(mail.text).not.toContain('locked');
    expect(mail.html).not.toContain('locked');
    expect(mail.text.split('\n')[0]).toBe('Hi,');
    expect(mail.text).toContain('Your verification code for scanning example.com is: 042917');
  });
});

describe('the support emails', () => {
  const request: SupportRequestRecord = {
    id: 'sr_1',
    reference: 'SR-20261102-7F3A9C',
    userId: 'user-1',
    email: 'ada@example.test',
    name: 'Ada Lovelace',
    category: 'technical',
    subject: 'Call +1-555-0100 now',
    message: 'Line one\nline two',
    auditId: null,
    status: 'open',
    plan: 'Monitor Plus',
    planIds: ['monitor-plus'],
    priority: true,
    createdAt: '2026-11-02T01:02:03.000Z',
  } as SupportRequestRecord;

  it('the support mailbox: the reference, category and plan in the subject, the request’s subject quoted in the body', () => {
    const mail = supportTeamEmail(brand, 'support@rampart.example', request);
    expect(mail.subject).toBe('[Priority] SR-20261102-7F3A9C Technical (Monitor Plus)');
    expect(mail.text).toContain('Subject: “Call +1-555-0100 now”');
    expect(mail.html).toContain('“Call +1-555-0100 now”');
  });

  it('the acknowledgement: a fixed subject, the request’s subject quoted', () => {
    const mail = supportAcknowledgementEmail(brand, request, 'Ada');
    expect(mail.subject).toBe('Rampart support: we received your request SR-20261102-7F3A9C');
    expect(mail.text).toContain('We received your support request “Call +1-555-0100 now” (Technical).');
  });
});
