import { Duration } from 'aws-cdk-lib';
import {
  HeadersFrameOption,
  HeadersReferrerPolicy,
  type ResponseCustomHeader,
  type ResponseHeadersPolicyProps,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';

/**
 * Turns the site's header table (lib/site/security-headers.ts, also used by the local server)
 * into a CloudFront response-headers policy: headers CloudFront models as security headers go
 * there, every other header becomes a custom header. A value CloudFront cannot express fails
 * the synth rather than being silently changed.
 */
export function responseHeadersFrom(
  headers: Readonly<Record<string, string>>,
): Pick<ResponseHeadersPolicyProps, 'securityHeadersBehavior' | 'customHeadersBehavior'> {
  const security: { -readonly [K in keyof ResponseSecurityHeadersBehavior]: ResponseSecurityHeadersBehavior[K] } = {};
  const custom: ResponseCustomHeader[] = [];

  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    switch (name) {
      case 'content-security-policy':
        security.contentSecurityPolicy = { contentSecurityPolicy: value, override: true };
        break;
      case 'strict-transport-security':
        security.strictTransportSecurity = parseHsts(value);
        break;
      case 'x-content-type-options':
        if (value.toLowerCase() !== 'nosniff') throw new Error(`x-content-type-options: CloudFront only sends nosniff, got ${value}`);
        security.contentTypeOptions = { override: true };
        break;
      case 'x-frame-options': {
        const option = Object.values(HeadersFrameOption).find((o) => o === value.toUpperCase());
        if (!option) throw new Error(`x-frame-options: CloudFront supports DENY or SAMEORIGIN, got ${value}`);
        security.frameOptions = { frameOption: option, override: true };
        break;
      }
      case 'referrer-policy': {
        const policy = Object.values(HeadersReferrerPolicy).find((p) => p === value.toLowerCase());
        if (!policy) throw new Error(`referrer-policy: unsupported value ${value}`);
        security.referrerPolicy = { referrerPolicy: policy, override: true };
        break;
      }
      default:
        custom.push({ header: name, value, override: true });
    }
  }
  return {
    securityHeadersBehavior: security,
    ...(custom.length > 0 ? { customHeadersBehavior: { customHeaders: custom } } : {}),
  };
}

function parseHsts(value: string): NonNullable<ResponseSecurityHeadersBehavior['strictTransportSecurity']> {
  const directives = value.split(';').map((d) => d.trim().toLowerCase()).filter(Boolean);
  const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)).find(Boolean);
  const known = directives.every((d) => /^max-age=\d+$/.test(d) || d === 'includesubdomains' || d === 'preload');
  if (!maxAge || !known) throw new Error(`strict-transport-security: cannot express "${value}" in CloudFront`);
  return {
    accessControlMaxAge: Duration.seconds(Number(maxAge[1])),
    includeSubdomains: directives.includes('includesubdomains'),
    preload: directives.includes('preload'),
    override: true,
  };
}
