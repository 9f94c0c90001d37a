/**
 * Subdomain-takeover fingerprints for the knowledge base, built by `npm run build:vulndb`
 * (bin/build-vulndb.ts calls buildTakeoverFingerprints): ../shared/data/takeover/ (can-i-take-over-xyz,
 * the main list with each service's status, and subjack's list, a supplement for CNAME patterns) into
 * lambdas/scanner/data/takeover-fingerprints.json, with TAKEOVER-PROVENANCE.md beside it. The product
 * reads only what this writes, never ../shared.
 *
 * One entry per service: its status (can-i-take-over-xyz's; `unrated` for a service only subjack
 * lists), where it is reached (CNAME suffixes, CNAME substrings for subjack's partial patterns, IPv4
 * addresses for A records), and its signs (NXDOMAIN, body texts, an HTTP status). The body texts are
 * made literal: the main list's README-table artefacts (`\.`, `&#124;` for "|", "` `" between two
 * texts) become alternatives, and `.*` splits a text into parts that must appear in order.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { join } from 'node:path';
import * as z from 'zod';
import type { StoredTakeoverFingerprints, TakeoverStatus } from '../lambdas/scanner/checks/subdomains/fingerprints.js';

const mainSchema = z.array(
  z.strictObject({
    service: z.string().min(1),
    cname: z.array(z.string()),
    fingerprint: z.string(),
    nxdomain: z.boolean(),
    http_status: z.number().int().nullable(),
    status: z.enum(['Vulnerable', 'Not vulnerable', 'Edge case']),
    vulnerable: z.boolean(),
    discussion: z.string(),
    documentation: z.string(),
    cicd_pass: z.boolean(),
  }),
);
const subjackSchema = z.array(z.strictObject({ service: z.string().min(1), cname: z.array(z.string()), fingerprint: z.array(z.string()), nxdomain: z.boolean() }));

export const CAN_I_TAKE_OVER_XYZ = { repository: 'EdOverflow/can-i-take-over-xyz', commit: '5bd4e12837911c8475486f1da922c9b9c706e632', date: '2025-02-08' };
export const SUBJACK = { repository: 'haccer/subjack', commit: 'b53899ce6230767beb1c4a9f879c6ebba23a98fa', date: '2026-03-16' };

/** Subjack names that compare to no main-list name once normalised (lower case, letters and digits). */
const SUBJACK_ALIASES: Record<string, string> = {
  s3bucket: 'awss3',
  elasticbeanstalk: 'awselasticbeanstalk',
  readme: 'readmeio',
  worksitesnet: 'worksites',
  smugmug: 'smugsmug',
  surge: 'surgesh',
  'azure-trafficmanager': 'microsoftazure',
  'azure-appservice': 'microsoftazure',
  'azure-blob': 'microsoftazure',
  'azure-cdn': 'microsoftazure',
  'azure-cloudapp': 'microsoftazure',
  'azure-api': 'microsoftazure',
  'azure-hdinsight': 'microsoftazure',
};

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '');
const STATUS: Record<z.infer<typeof mainSchema>[number]['status'], TakeoverStatus> = { Vulnerable: 'vulnerable', 'Not vulnerable': 'not-vulnerable', 'Edge case': 'edge-case' };
const DOMAIN = /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/;

/** A main-list fingerprint as literal alternatives, each a list of parts that must appear in order. */
export function fingerprintAlternatives(text: string): string[][] {
  if (text === '' || text === 'NXDOMAIN' || /^HTTP_STATUS=\d+$/.test(text)) return [];
  return text
    .split(/`\s+`|&#124;/)
    .map((alternative) => alternative.replace(/\\\./g, '.').trim())
    .filter((alternative) => alternative !== '')
    .map((alternative) => alternative.split('.*').map((part) => part).filter((part) => part !== ''));
}

export interface TakeoverBuild {
  services: number;
  bytes: number;
  sourceBytes: number;
}

/** Reads the two fingerprint files of `sourceDir`, writes takeover-fingerprints.json and TAKEOVER-PROVENANCE.md into `outDir`. */
export function buildTakeoverFingerprints(sourceDir: string, outDir: string): TakeoverBuild {
  const mainText = readFileSync(join(sourceDir, 'can-i-take-over-xyz-fingerprints.json'), 'utf8');
  const subjackText = readFileSync(join(sourceDir, 'subjack-fingerprints.json'), 'utf8');
  const main = mainSchema.parse(JSON.parse(mainText));
  const subjack = subjackSchema.parse(JSON.parse(subjackText));
  const notes: string[] = [];

  const services: StoredTakeoverFingerprints['services'] = [];
  const byName = new Map<string, StoredTakeoverFingerprints['services'][number]>();
  for (const entry of main) {
    const suffixes: string[] = [];
    const addresses: string[] = [];
    for (const raw of entry.cname) {
      const pattern = raw.trim().toLowerCase().replace(/^\.+|\.+$/g, '');
      if (isIPv4(pattern)) addresses.push(pattern);
      else if (DOMAIN.test(pattern)) suffixes.push(pattern);
      else notes.push(`${entry.service}: CNAME pattern "${raw}" is not a domain name, left out`);
    }
    const alternatives = fingerprintAlternatives(entry.fingerprint);
    if (alternatives.length > 0 && alternatives.map((parts) => parts.join('…')).join(' | ') !== entry.fingerprint) {
      notes.push(`${entry.service}: fingerprint "${entry.fingerprint}" read as ${alternatives.map((parts) => `"${parts.join('" then "')}"`).join(' or ')}`);
    }
    const discussion = /\((https?:\/\/[^)\s]+)\)/.exec(entry.discussion)?.[1];
    const service: StoredTakeoverFingerprints['services'][number] = {
      service: entry.service,
      status: STATUS[entry.status],
      suffixes: [...new Set(suffixes)],
      contains: [],
      addresses,
      nxdomain: entry.nxdomain || entry.fingerprint === 'NXDOMAIN',
      fingerprints: alternatives,
      ...(entry.http_status !== null ? { httpStatus: entry.http_status } : {}),
      ...(discussion ? { discussion } : {}),
      ...(entry.documentation ? { documentation: entry.documentation } : {}),
      sources: ['can-i-take-over-xyz'],
    };
    services.push(service);
    byName.set(normalise(entry.service), service);
  }

  for (const entry of subjack) {
    const key = SUBJACK_ALIASES[entry.service] ?? SUBJACK_ALIASES[normalise(entry.service)] ?? normalise(entry.service);
    let service = byName.get(key);
    if (!service) {
      service = { service: entry.service, status: 'unrated', suffixes: [], contains: [], addresses: [], nxdomain: false, fingerprints: [], sources: [] };
      services.push(service);
      byName.set(key, service);
      notes.push(`${entry.service}: only in subjack's list, so its status is unrated (reported as needing manual review)`);
    }
    if (!service.sources.includes('subjack')) service.sources.push('subjack');
    for (const raw of entry.cname) {
      const pattern = raw.trim().toLowerCase();
      if (pattern === '') continue;
      const domain = pattern.replace(/^\./, '');
      // ".s3-website-", "-portal.apigee.net": subjack matches these inside a name, not as its end.
      if (DOMAIN.test(domain) && !pattern.endsWith('-') && !pattern.startsWith('-')) {
        if (!service.suffixes.includes(domain) && !service.suffixes.some((suffix) => domain.endsWith(`.${suffix}`))) service.suffixes.push(domain);
      } else if (!service.contains.includes(pattern)) service.contains.push(pattern);
    }
    const hadNxdomain = service.nxdomain;
    if (entry.nxdomain) service.nxdomain = true;
    // The main list's sign where it has one (Azure's is NXDOMAIN); subjack's texts otherwise.
    if (service.fingerprints.length === 0 && !(hadNxdomain && service.sources.includes('can-i-take-over-xyz')) && service.httpStatus === undefined) service.fingerprints = entry.fingerprint.filter((text) => text.trim() !== '').map((text) => [text]);
  }
  services.sort((a, b) => (a.service.toLowerCase() < b.service.toLowerCase() ? -1 : 1));

  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const stored: StoredTakeoverFingerprints = {
    format: 1,
    sources: {
      canITakeOverXyz: { ...CAN_I_TAKE_OVER_XYZ, sha256: sha(mainText), licence: 'CC BY 4.0' },
      subjack: { ...SUBJACK, sha256: sha(subjackText), licence: 'Apache-2.0' },
    },
    services,
  };
  const json = `${JSON.stringify({ ...stored, services: undefined }).slice(0, -1)},"services":[\n${services.map((service) => JSON.stringify(service)).join(',\n')}\n]}\n`;
  writeFileSync(join(outDir, 'takeover-fingerprints.json'), json);
  const bytes = Buffer.byteLength(json);
  const sourceBytes = Buffer.byteLength(mainText) + Buffer.byteLength(subjackText);
  writeFileSync(join(outDir, 'TAKEOVER-PROVENANCE.md'), provenance({ stored, notes, bytes, sourceBytes, mainCount: main.length, subjackCount: subjack.length }));
  return { services: services.length, bytes, sourceBytes };
}

function provenance(p: { stored: StoredTakeoverFingerprints; notes: string[]; bytes: number; sourceBytes: number; mainCount: number; subjackCount: number }): string {
  const count = (status: TakeoverStatus) => p.stored.services.filter((service) => service.status === status).length;
  const reachable = p.stored.services.filter((service) => service.suffixes.length + service.contains.length + service.addresses.length > 0);
  const rows = p.stored.services
    .map((s) => {
      const where = [...s.suffixes, ...s.contains.map((c) => `*${c}*`), ...s.addresses].join(', ') || '—';
      const signs = [s.nxdomain ? 'NXDOMAIN' : '', s.fingerprints.length ? `${s.fingerprints.length} text${s.fingerprints.length === 1 ? '' : 's'}` : '', s.httpStatus ? `HTTP ${s.httpStatus}` : ''].filter(Boolean).join(', ') || '—';
      return `| ${s.service} | ${s.status} | ${where} | ${signs} | ${s.sources.join(', ')} |`;
    })
    .join('\n');
  const { canITakeOverXyz: main, subjack } = p.stored.sources;
  return `# Subdomain-takeover fingerprints: provenance

Generated by \`npm run build:vulndb\` (\`buildTakeoverFingerprints\` in bin/build-takeover.ts) from
\`shared/data/takeover/\`. Do not edit: rebuild. The scanner reads only \`takeover-fingerprints.json\`
(bundled with the subdomains check by lambdas/scanner/checks/subdomains/fingerprints.ts), never the shared data.

| file | bytes | what |
|---|---|---|
| takeover-fingerprints.json | ${p.bytes} | ${p.stored.services.length} services: ${count('vulnerable')} vulnerable, ${count('edge-case')} edge cases, ${count('not-vulnerable')} not vulnerable, ${count('unrated')} unrated (subjack only); ${reachable.length} with a CNAME pattern or address |

The source files are ${p.sourceBytes} bytes (${p.mainCount} + ${p.subjackCount} entries).

## Sources

| file | source | commit (date) | sha256 | licence |
|---|---|---|---|---|
| \`can-i-take-over-xyz-fingerprints.json\` | ${main.repository} \`fingerprints.json\` | ${main.commit} (${main.date}) | \`${main.sha256}\` | CC BY 4.0 |
| \`subjack-fingerprints.json\` | ${subjack.repository} \`subjack/fingerprints.json\` | ${subjack.commit} (${subjack.date}) | \`${subjack.sha256}\` | Apache-2.0 |

## How the two lists were combined

- can-i-take-over-xyz gives each service's status (Vulnerable, Not vulnerable, Edge case), its CNAME
  patterns, its sign (NXDOMAIN, a text in the body, or an HTTP status) and the discussion link. Its status
  decides what the scanner reports: vulnerable → a takeover finding; edge case → "needs manual review";
  not vulnerable → no takeover finding (a dangling record stays a stale-record finding).
- subjack's entries add CNAME patterns for services the main list has none for (GitHub Pages, Pantheon,
  Shopify, Azure's services …), joined by name (lower case, letters and digits; a few by hand:
  ${Object.entries(SUBJACK_ALIASES)
    .filter(([key]) => !key.startsWith('azure-'))
    .map(([from, to]) => `${from} → ${to}`)
    .join(', ')}, azure-* → Microsoft Azure). Its texts are used where the main list has none. A service
  only subjack lists keeps status \`unrated\` and is reported as needing manual review.
- Patterns that are domain names match a CNAME target that is that name or ends with "." and it; subjack's
  partial patterns (\`.s3-website-\`, \`-portal.apigee.net\`) match anywhere in the name; IPv4 addresses
  (SmartJobBoard, Worksites) match the subdomain's A records.

Changes made, one per line:
${p.notes.map((note) => `- ${note}`).join('\n')}

| service | status | CNAME suffixes, *substrings*, addresses | signs | from |
|---|---|---|---|---|
${rows}

## Gaps (from the shared README)

Only ${reachable.length} services can be recognised by their CNAME or address; the others' texts are not
matched without one. The main list was last regenerated on ${main.date}; services change how they answer
for deleted resources. Texts are literal substrings of the body, matched in the raw HTML. NS, MX and stale
A-record takeovers are not covered.

## Licences and attribution

**can-i-take-over-xyz** (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/): "Subdomain takeover
fingerprints from can-i-take-over-xyz by EdOverflow and contributors, CC BY 4.0,
https://github.com/EdOverflow/can-i-take-over-xyz". Changes: the fingerprints were made literal as listed
above, and combined with subjack's CNAME patterns. Every finding built from an entry says so and links
the entry's discussion.

**subjack** (Apache-2.0): fingerprints from haccer/subjack (https://github.com/haccer/subjack), licensed
under the Apache License, Version 2.0; the licence text is in \`licenses/Apache-2.0.txt\` beside this file.
NOTICE: this product includes subdomain-takeover CNAME patterns and fingerprints from subjack
(https://github.com/haccer/subjack), modified as described above.
`;
}
