import { describe, expect, it } from 'vitest';
import { loadConfig, scannerAbuseMailbox } from '../../lambdas/config.js';
import { ValidationError } from '../../lambdas/domain/errors.js';
import {
  optOutFileProves,
  optOutInstructions,
  optOutMessages,
  parseOptOutDomain,
  registrableDomainOf,
  txtRecordsProveOptOut,
} from '../../lambdas/domain/scanner-opt-out.js';
import { txtRecordValue } from '../../lambdas/domain/domains.js';
import { SCANNER_POLITENESS } from '../../lambdas/scanner/net/polite-http.js';
import { scannerInfo } from '../../lambdas/use-cases/scanner-identity.js';

const TOKEN = 'abcdefghijklmnopqrstuv';

describe('the opt-out covers the registrable domain (DECISIONS "Scanner identity")', () => {
  it('reads what an owner types as its registrable domain, subdomains and paths included', () => {
    expect(parseOptOutDomain('https://www.Shop.Example.com/contact?x=1')).toBe('example.com');
    expect(parseOptOutDomain('shop.example.co.uk')).toBe('example.co.uk');
    expect(parseOptOutDomain('example.com.')).toBe('example.com');
    // A private suffix's tenant is its own owner: alice.github.io, not github.io.
    expect(parseOptOutDomain('alice.github.io')).toBe('alice.github.io');
  });

  it('refuses a public suffix, an address, a single label and nothing, with a 400 message', () => {
    for (const input of ['github.io', 'co.uk', '203.0.113.5', 'https://[2001:db8::1]/', 'localhost', '', '   ', 42, undefined]) {
      expect(() => parseOptOutDomain(input), String(input)).toThrow(ValidationError);
    }
    expect(() => parseOptOutDomain('github.io')).toThrow(/public suffix/);
  });

  it('finds the registrable domain of a scanned host; an address has none (it is never refused by an opt-out)', () => {
    expect(registrableDomainOf('shop.example.test')).toBe('example.test');
    expect(registrableDomainOf('WWW.Example.COM.')).toBe('example.com');
    expect(registrableDomainOf('203.0.113.5')).toBeUndefined();
    expect(registrableDomainOf('[2001:db8::1]')).toBeUndefined();
    expect(registrableDomainOf('com')).toBeUndefined();
  });
});

describe('the proof', () => {
  it('is a TXT record under its own label, or a file in /.well-known, named after the product', () => {
    expect(optOutInstructions('rampart', 'example.com', TOKEN)).toEqual({
      dns: { type: 'TXT', name: '_rampart-scanner-opt-out.example.com', value: `rampart-scanner-opt-out=${TOKEN}` },
      file: { url: 'https://example.com/.well-known/rampart-scanner-opt-out.txt', content: TOKEN },
    });
  });

  it('holds only with the request’s own token: not another token, not the domain verification record', () => {
    expect(txtRecordsProveOptOut(['v=spf1 -all', ` rampart-scanner-opt-out=${TOKEN} `], 'rampart', TOKEN)).toBe(true);
    expect(txtRecordsProveOptOut([`rampart-scanner-opt-out=${'x'.repeat(22)}`], 'rampart', TOKEN)).toBe(false);
    expect(txtRecordsProveOptOut([txtRecordValue('rampart', TOKEN)], 'rampart', TOKEN)).toBe(false);
    expect(txtRecordsProveOptOut([`bastion-scanner-opt-out=${TOKEN}`], 'rampart', TOKEN)).toBe(false);
    expect(optOutFileProves(`\n  ${TOKEN}\n`, TOKEN)).toBe(true);
    expect(optOutFileProves(`<html>${TOKEN}</html>`, TOKEN)).toBe(false);
    expect(optOutFileProves('', TOKEN)).toBe(false);
  });

  it('refuses a scan naming the domain, the product and the day the owner asked', () => {
    const message = optOutMessages.refused('example.com', 'Rampart', '2026-12-01T09:30:00.000Z', 'https://rampart.example/scanner');
    expect(message).toBe(
      "example.com's owner asked not to be scanned by Rampart on 1 December 2026. Rampart does not scan example.com or its subdomains for anyone until the owner withdraws the request (https://rampart.example/scanner).",
    );
  });
});

describe('scanner settings', () => {
  it('sends abuse reports to SCANNER_ABUSE_EMAIL, else abuse@ the MAIL_FROM domain, else the local product domain', () => {
    expect(scannerAbuseMailbox(loadConfig({ SCANNER_ABUSE_EMAIL: 'security@bastion.example', MAIL_FROM: 'no-reply@mail.bastion.example' }))).toBe('security@bastion.example');
    expect(scannerAbuseMailbox(loadConfig({ MAIL_FROM: 'no-reply@mail.bastion.example' }))).toBe('abuse@mail.bastion.example');
    expect(scannerAbuseMailbox(loadConfig({ PRODUCT_NAME: 'Bastion Security' }))).toBe('abuse@bastion-security.example');
    expect(() => loadConfig({ SCANNER_ABUSE_EMAIL: 'abuse' })).toThrow(/SCANNER_ABUSE_EMAIL: /);
  });

  it('reads SCANNER_EGRESS_ADDRESSES as IP addresses, none by default, and refuses anything else naming the key', () => {
    expect(loadConfig({}).SCANNER_EGRESS_ADDRESSES).toEqual([]);
    expect(loadConfig({ SCANNER_EGRESS_ADDRESSES: ' 203.0.113.7, 2001:db8::1 ,' }).SCANNER_EGRESS_ADDRESSES).toEqual(['203.0.113.7', '2001:db8::1']);
    expect(() => loadConfig({ SCANNER_EGRESS_ADDRESSES: '203.0.113.7,nat-gateway' })).toThrow(/SCANNER_EGRESS_ADDRESSES: must be a comma-separated list of IP addresses/);
  });

  it('publishes the user agent, the addresses when fixed (null otherwise), the abuse address and the engine’s own politeness', () => {
    const fixed = scannerInfo({ config: loadConfig({ SITE_URL: 'https://bastion.example', PRODUCT_NAME: 'Bastion', SCANNER_EGRESS_ADDRESSES: '203.0.113.7,203.0.113.8', MAIL_FROM: 'no-reply@bastion.example' }) });
    expect(fixed).toEqual({
      productName: 'Bastion',
      userAgent: 'BastionScanner/1.0 (+https://bastion.example/scanner)',
      egressAddresses: ['203.0.113.7', '203.0.113.8'],
      abuseEmail: 'abuse@bastion.example',
      politeness: { maxInFlightPerSite: SCANNER_POLITENESS.maxInFlight, maxRequestsPerSecondPerSite: SCANNER_POLITENESS.perSecond, activeScansPerSitePerHour: 6 },
      optOut: { dnsRecordName: '_bastion-scanner-opt-out.{domain}', dnsRecordValuePrefix: 'bastion-scanner-opt-out=', filePath: '/.well-known/bastion-scanner-opt-out.txt', requestValidDays: 7 },
    });
    expect(scannerInfo({ config: loadConfig({}) }).egressAddresses).toBeNull();
  });
});
