/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATH_PREFIXES } from '../../lib/site/viewer-request-function.js';
import { removeTempDirs, synthProduct } from './synth.js';

/**
 * Issue 11, "TLS A on the CloudFront configuration": with the site's own domain, viewers get TLS 1.2+
 * only (CloudFront's TLSv1.2_2021 policy: ECDHE + AES-GCM/ChaCha20 suites, no CBC, no TLS 1.0/1.1),
 * SNI, and plain HTTP only as a redirect — what SSL Labs grades A when HSTS is also sent.
 */
const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000';

afterAll(removeTempDirs);

describe('the site distribution with a custom domain', () => {
  // No bundling: only the distribution is read.
  const { template } = synthProduct({
    frontendDist: null,
    context: { 'aws:cdk:bundling-stacks': [] },
    env: { SITE_DOMAIN: 'app.rampart.example', SITE_CERTIFICATE_ARN: CERTIFICATE_ARN },
  });
  const distributions = Object.values(template.findResources('AWS::CloudFront::Distribution')) as any[];
  const config = distributions[0]?.Properties.DistributionConfig;

  it('accepts TLS 1.2 and later only, by SNI, with the given certificate and name', () => {
    expect(distributions).toHaveLength(1);
    expect(config.Aliases).toEqual(['app.rampart.example']);
    expect(config.ViewerCertificate).toEqual({ AcmCertificateArn: CERTIFICATE_ARN, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
  });

  it('never serves plain HTTP: pages redirect to HTTPS, the API and badges refuse it (a token never crosses in the clear)', () => {
    const others = (config.CacheBehaviors ?? []) as any[];
    const isApi = (pattern: string) => API_PATH_PREFIXES.some((prefix) => pattern.startsWith(prefix)) || pattern.endsWith('.pdf');
    expect(others.filter((b) => isApi(b.PathPattern)).length).toBeGreaterThanOrEqual(API_PATH_PREFIXES.length);
    const expected = (pattern: string) => (isApi(pattern) ? 'https-only' : 'redirect-to-https');

    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(others.map((b) => [b.PathPattern, b.ViewerProtocolPolicy])).toEqual(others.map((b) => [b.PathPattern, expected(b.PathPattern)]));
  });
});
