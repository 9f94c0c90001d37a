import type { Audit } from './audit.js';
import { auditGrants } from './plans.js';
import { type FixGuideSelection, type GuideTopic, type PlatformFixesView, type PlatformGuideView, platformFixesOf } from './platform-guides.js';
import { type DetectedProviders, PROVIDERS, type ProviderId, type ProviderRole } from './providers.js';

/**
 * Issue 21 "Show them" and "Per-platform fixes", as the report shows them: the providers line with
 * what each detection rests on (every report), and each issue's platform guides — the steps
 * themselves in paid audits (Basic and Pro), and in a free report only a one-line note naming the
 * platforms the paid audit has steps for. The results page, the shared page and the PDF read these
 * parts of the report view; none of them decides on its own what a free reader gets.
 */

/** Platform fix guides are what the report was paid for grants (the plan catalogue: the Basic and Pro Audits), never the free report. */
export const hasPlatformGuides = (audit: Pick<Audit, 'isPremium' | 'planType'>): boolean => auditGrants(audit).platformFixGuides;

export const PROVIDER_ROLE_LABELS: Readonly<Record<ProviderRole, string>> = {
  mail: 'Mail',
  dns: 'DNS',
  cdn: 'CDN',
  host: 'Web host',
  cms: 'Website software',
};

/** The order the report lists the roles in: the summary line's order. */
const ROLE_ORDER: readonly ProviderRole[] = ['mail', 'dns', 'host', 'cms', 'cdn'];

export interface DetectedProviderView {
  id: ProviderId;
  name: string;
  /** What the detection rests on, as the report shows it: `NS adam.ns.cloudflare.com`, `MX smtp.google.com`. */
  evidence: string[];
  /** A CDN that belongs to the host's platform (Shopify serves through Cloudflare): its name. */
  partOf?: string;
  /** A mail gateway in front of the mailbox provider (Mimecast, Proofpoint). */
  gateway?: true;
}

export interface ProvidersView {
  /** "Your mail: Microsoft 365 · DNS: Cloudflare · Site: WordPress on cPanel". */
  summary: string;
  /** The roles something was detected in, in the summary's order. */
  roles: { role: ProviderRole; label: string; providers: DetectedProviderView[] }[];
}

/** A paid audit's platform guides for one issue: the steps, and whether the plan's nginx/Apache/IIS lines still apply. */
export interface IncludedPlatformGuides {
  access: 'included';
  topic: GuideTopic;
  guides: PlatformGuideView[];
  /** Show the server configuration lines (nginx, Apache, IIS) next to the guides: the owner may edit that server. */
  serverConfig: boolean;
}

/** A free report's note: the paid audit has step-by-step instructions for these platforms. No steps. */
export interface PlatformGuidesTeaser {
  access: 'teaser';
  topic: GuideTopic;
  platformNames: string[];
  /** One short sentence, shown as written. */
  teaser: string;
}

export type FindingPlatformGuides = IncludedPlatformGuides | PlatformGuidesTeaser;

/** The providers line of a report; null when nothing was detected (a report stored before the dns and email checks read them, or a self-hosted site). */
export function providersView(providers: DetectedProviders, summary: string): ProvidersView | null {
  const roles = ROLE_ORDER.map((role) => ({
    role,
    label: PROVIDER_ROLE_LABELS[role],
    providers: providers[role].map(
      (p): DetectedProviderView => ({
        id: p.id,
        name: p.name,
        evidence: p.evidence.map((e) => e.detail),
        ...(p.partOf ? { partOf: PROVIDERS[p.partOf] } : {}),
        ...(p.gateway ? { gateway: true as const } : {}),
      }),
    ),
  })).filter((r) => r.providers.length > 0);
  if (roles.length === 0 && summary === '') return null;
  return { summary, roles };
}

const joinNames = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** How a teaser names a guide's platform: the DNS host that could not be named is "your DNS host". */
const teaserName = (guide: PlatformGuideView): string => (guide.platform === 'dns-host' ? 'your DNS host' : guide.platformName);

export function teaserText(platformNames: readonly string[]): string {
  return `The paid audit includes step-by-step instructions for ${joinNames(platformNames)}.`;
}

/** One issue's guides as a reader of this report gets them; undefined when the issue has none. */
export function findingPlatformGuides(selection: FixGuideSelection | undefined, paid: boolean): FindingPlatformGuides | undefined {
  if (!selection?.topic || selection.guides.length === 0) return undefined;
  if (paid) return { access: 'included', topic: selection.topic, guides: selection.guides, serverConfig: selection.serverConfig };
  const platformNames = [...new Set(selection.guides.map(teaserName))];
  return { access: 'teaser', topic: selection.topic, platformNames, teaser: teaserText(platformNames) };
}

/** What a report view needs of the platform fixes: detected once per view. */
export interface ReportPlatformFixes {
  providers: ProvidersView | null;
  paid: boolean;
  byFinding: PlatformFixesView['byFinding'];
}

export function reportPlatformFixes(audit: Pick<Audit, 'host' | 'checks' | 'isPremium' | 'planType'>): ReportPlatformFixes {
  const fixes = platformFixesOf(audit);
  return { providers: providersView(fixes.providers, fixes.summary), paid: hasPlatformGuides(audit), byFinding: fixes.byFinding };
}

/** The guides of one finding from a report's fixes (paid: steps; free: the teaser). */
export function guidesOfFinding(fixes: ReportPlatformFixes, findingId: string): FindingPlatformGuides | undefined {
  return findingPlatformGuides(fixes.byFinding[findingId], fixes.paid);
}
