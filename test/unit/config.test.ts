import { describe, expect, it } from 'vitest';
import { loadConfig, parseResolvers, productSlug } from '../../lambdas/config.js';
import { ConfigError } from '../../lambdas/domain/errors.js';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.PRODUCT_NAME).toBe('Rampart');
    expect(config.SCAN_ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(config.SMS_MODE).toBe('sns');
    expect(config.DEMO_MODE).toBe(false);
  });

  it('turns the demo account on with DEMO_MODE=1 and refuses anything but a flag', () => {
    expect(loadConfig({ DEMO_MODE: '1' }).DEMO_MODE).toBe(true);
    expect(loadConfig({ DEMO_MODE: '0' }).DEMO_MODE).toBe(false);
    expect(() => loadConfig({ DEMO_MODE: 'yes' })).toThrowError(/DEMO_MODE/);
  });

  it('names every key a resource needs when it is missing', () => {
    expect(() => loadConfig({}, ['table', 'userPool'])).toThrowError(
      new ConfigError('Missing configuration: TABLE_NAME, USER_POOL_ID, USER_POOL_CLIENT_ID'),
    );
  });

  it('names a bad value', () => {
    expect(() => loadConfig({ SITE_URL: 'not a url' })).toThrowError(/SITE_URL/);
  });

  it('reads resolver lists, IPv6 included', () => {
    expect(parseResolvers('127.0.0.1:5353, 10.0.0.2,[::1]:53')).toEqual([
      { host: '127.0.0.1', port: 5353 },
      { host: '10.0.0.2', port: 53 },
      { host: '::1', port: 53 },
    ]);
  });

  it('makes a slug of the product name', () => {
    expect(productSlug('Rampart Security')).toBe('rampart-security');
  });
});
