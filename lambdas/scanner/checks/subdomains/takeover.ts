/**
 * Subdomain takeover: a CNAME into a hosting service whose resource was deleted. The service
 * answers NXDOMAIN for the name, and anyone who creates a resource with that name there serves
 * content under the victim's domain. Patterns follow the community list "can-i-take-over-xyz"
 * (EdOverflow), restricted to services where NXDOMAIN is the tell.
 */
import { getDomain } from 'tldts';
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

export const TAKEOVER_SERVICES: readonly { service: string; pattern: RegExp }[] = [
  { service: 'AWS S3', pattern: /(^|\.)s3([.-][a-z0-9-]+)*\.amazonaws\.com$|\.s3-website[.-][a-z0-9-]+\.amazonaws\.com$/ },
  { service: 'AWS CloudFront', pattern: /\.cloudfront\.net$/ },
  { service: 'AWS Elastic Beanstalk', pattern: /\.elasticbeanstalk\.com$/ },
  { service: 'Heroku', pattern: /\.(herokuapp|herokudns|herokussl)\.com$/ },
  { service: 'GitHub Pages', pattern: /\.github\.io$/ },
  { service: 'Azure App Service', pattern: /\.(azurewebsites\.net|cloudapp\.net|cloudapp\.azure\.com|trafficmanager\.net|azureedge\.net|azure-api\.net|azurefd\.net|azurecontainer\.io|blob\.core\.windows\.net|database\.windows\.net|servicebus\.windows\.net|visualstudio\.com)$/ },
  { service: 'Pantheon', pattern: /\.pantheonsite\.io$/ },
  { service: 'Netlify', pattern: /\.netlify\.(app|com)$/ },
  { service: 'Fastly', pattern: /\.fastly\.net$/ },
  { service: 'Ghost', pattern: /\.ghost\.io$/ },
  { service: 'Shopify', pattern: /\.myshopify\.com$/ },
  { service: 'Zendesk', pattern: /\.zendesk\.com$/ },
  { service: 'WP Engine', pattern: /\.wpengine\.com$/ },
  { service: 'Surge.sh', pattern: /\.surge\.sh$/ },
  { service: 'Bitbucket', pattern: /\.bitbucket\.io$/ },
  { service: 'ReadMe', pattern: /\.readme\.io$/ },
  { service: 'Vercel', pattern: /\.vercel\.app$|\.now\.sh$/ },
  { service: 'Fly.io', pattern: /\.fly\.dev$/ },
  { service: 'Render', pattern: /\.onrender\.com$/ },
  { service: 'Google Cloud Storage', pattern: /\.storage\.googleapis\.com$|^c\.storage\.googleapis\.com$/ },
  { service: 'Firebase', pattern: /\.(firebaseapp\.com|web\.app)$/ },
  { service: 'Tumblr', pattern: /^domains\.tumblr\.com$/ },
  { service: 'Webflow', pattern: /\.webflow\.io$|^proxy-ssl\.webflow\.com$/ },
  { service: 'Unbounce', pattern: /\.unbouncepages\.com$/ },
  { service: 'Help Scout', pattern: /\.helpscoutdocs\.com$/ },
  { service: 'Strikingly', pattern: /\.s\.strikinglydns\.com$/ },
  { service: 'Agile CRM', pattern: /\.agilecrm\.com$/ },
  { service: 'Cargo', pattern: /\.cargocollective\.com$/ },
];

/** The hosting service a CNAME target belongs to, when it is one of the known takeover-prone ones. */
export function takeoverService(target: string): string | undefined {
  const name = target.toLowerCase().replace(/\.$/, '');
  return TAKEOVER_SERVICES.find((s) => s.pattern.test(name))?.service;
}

export interface CnameObservation {
  name: string;
  cnames: readonly string[];
  /** The rcode for the end of the chain. */
  finalRcode: string;
  /** The rcode for the registrable domain of the chain's end (NXDOMAIN: nobody owns it). */
  targetDomainRcode?: string;
}

export type DanglingVerdict = { kind: 'service'; service: string; target: string } | { kind: 'unregistered'; domain: string; target: string } | { kind: 'stale'; target: string };

/** Why a CNAME dangles, if it does: its chain ends in NXDOMAIN. */
export function danglingVerdict(observation: CnameObservation): DanglingVerdict | undefined {
  const target = observation.cnames.at(-1);
  if (!target || observation.finalRcode !== 'NXDOMAIN') return undefined;
  const service = observation.cnames.map(takeoverService).find((s) => s !== undefined);
  if (service) return { kind: 'service', service, target };
  const domain = getDomain(target) ?? target;
  if (observation.targetDomainRcode === 'NXDOMAIN') return { kind: 'unregistered', domain, target };
  return { kind: 'stale', target };
}

const finding = findingsFor('subdomains');

/**
 * Analyze dangling CNAMEs. Into a takeover-prone service, or into a domain nobody has registered,
 * it is high: whoever claims the resource (or buys the domain) serves pages, scripts and cookies
 * under your domain, and can obtain certificates for it. A CNAME to a missing name in a domain
 * someone does own is low: a stale record with no known way to claim it.
 */
export function analyzeDanglingCnames(observations: readonly CnameObservation[]): Finding[] {
  const findings: Finding[] = [];
  const stale: string[] = [];
  for (const observation of observations) {
    const verdict = danglingVerdict(observation);
    if (!verdict) continue;
    const chain = [observation.name, ...observation.cnames].join(' → ');
    if (verdict.kind === 'stale') {
      stale.push(`${chain} (NXDOMAIN)`);
      continue;
    }
    findings.push(
      finding({
        id: 'subdomains.dangling-cname',
        title: `${observation.name} can be taken over (dangling CNAME)`,
        severity: 'high',
        category: 'Infrastructure',
        evidence:
          verdict.kind === 'service'
            ? `${chain}: ${verdict.target} does not exist (NXDOMAIN) at ${verdict.service}`
            : `${chain}: ${verdict.target} does not exist and its domain ${verdict.domain} is not registered (NXDOMAIN)`,
        description:
          verdict.kind === 'service'
            ? `${observation.name} points to a ${verdict.service} resource that no longer exists. Anyone who creates a resource with that name can serve content, steal cookies and get certificates under your domain.`
            : `${observation.name} points into ${verdict.domain}, which nobody has registered. Whoever registers it controls what ${observation.name} shows.`,
        recommendation: `Remove the CNAME for ${observation.name}, or re-create the resource it points to, today.`,
      }),
    );
  }
  if (stale.length > 0) {
    findings.push(
      finding({
        id: 'subdomains.stale-cname',
        title: 'CNAME records point to names that do not exist',
        severity: 'low',
        category: 'Infrastructure',
        evidence: stale.join('; '),
        description: 'These records lead nowhere. They are not known to be claimable, but stale records are how takeovers start when the target domain or service changes hands.',
        recommendation: 'Remove records for services you no longer use.',
      }),
    );
  }
  return findings;
}
