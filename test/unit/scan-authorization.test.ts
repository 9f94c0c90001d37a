import { describe, expect, it } from 'vitest';
import { emailDomain, mayScanAtOnce } from '../../lambdas/domain/scan-authorization.js';

describe('who may scan a site at once (DECISIONS "Who may scan at once")', () => {
  it.each([
    ['owner@example.com', 'shop.example.com', true, 'the site is a subdomain of the email domain'],
    ['owner@example.com', 'example.com', true, 'same domain'],
    ['owner@example.com', 'www.example.com', true, 'www. is stripped'],
    ['owner@Example.COM', 'WWW.example.com', true, 'case does not matter'],
    ['a@sub.example.com', 'example.com', true, 'the email domain is a subdomain of the site'],
    ['a@mail.shop.example.com', 'www.shop.example.com', true, 'deeper subdomain, www. stripped'],
    ['owner@example.test', 'shop.example.test', true, 'the test stack’s default lead'],
    ['a@example.co.uk', 'shop.example.co.uk', true, 'below a two-label public suffix'],
    ['a@gmail.com', 'example.com', false, 'a mailbox provider'],
    ['a@example.co.uk', 'other.co.uk', false, 'two registrants under one public suffix'],
    ['a@co.uk', 'example.co.uk', false, 'a public suffix is nobody’s parent'],
    ['a@example.com', 'evil-example.com', false, 'a name that merely ends alike'],
    ['a@example.com', 'example.com.evil.net', false, 'a name that merely starts alike'],
    ['a@shop.example.com', 'blog.example.com', false, 'sibling subdomains'],
    ['a@shop.example.com', 'myshop.example.com', false, 'a sibling whose name ends like the email domain (no dot before it)'],
    ['a@myshop.example.com', 'shop.example.com', false, 'an email domain whose name ends like the site (no dot before it)'],
    ['a@alice.github.io', 'bob.github.io', false, 'a private public suffix (github.io) counts too'],
    ['a@github.io', 'bob.github.io', false, 'nor is a private suffix a parent'],
    ['a@example.com', '93.184.216.34', false, 'an IP address'],
    ['a@localhost', 'localhost', false, 'no registrable domain'],
  ])('%s → %s: %s (%s)', (email, host, expected) => {
    expect(mayScanAtOnce(email, host)).toBe(expected);
  });

  it('reads the domain after the last @', () => {
    expect(emailDomain('"a@b"@Example.com')).toBe('example.com');
  });

  it('reads the domain in lower case, without spaces around it or a trailing dot', () => {
    expect(emailDomain('owner@Example.COM')).toBe('example.com');
    expect(emailDomain('owner@example.com ')).toBe('example.com');
    expect(emailDomain('owner@example.com.')).toBe('example.com');
  });

  it('takes a fully qualified host (trailing dot) for the same site', () => {
    expect(mayScanAtOnce('owner@example.com', 'shop.example.com.')).toBe(true);
    expect(mayScanAtOnce('owner@example.com.', 'shop.example.com')).toBe(true);
  });
});
