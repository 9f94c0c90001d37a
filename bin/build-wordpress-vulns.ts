/**
 * WordPress plugin and theme vulnerabilities for the knowledge base, built by `npm run build:vulndb`
 * (bin/build-vulndb.ts calls buildWordPressVulns): ../shared/data/vulndb/wordpress-plugins.jsonl and
 * wordpress-themes.jsonl (Wordfence Intelligence records with a CVE id, one per CVE and slug) into
 * lambdas/scanner/data/wordpress-vulns.json, with WORDPRESS-PROVENANCE.md beside it (sources, licences,
 * every change made). The product reads only what this writes, never ../shared.
 *
 * Kept per record: CVE, CVSS vector and score, the kind of flaw (from the title), the affected ranges,
 * the first fixed version, KEV, EPSS and the Wordfence record ids (the licence asks for a link to each
 * record). Left out, for size: titles' product names, publication dates, CWE, SSVC, nuclei fields. The
 * stored form is the one lambdas/scanner/vulndb/wordpress.ts reads (its opening comment describes it).
 * The output is sorted and carries no build time: the same input gives the same bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { parseVersion } from '../lambdas/scanner/vulndb/version.js';
import {
  ALTERNATIVE,
  FIELD,
  formatRange,
  packRecordId,
  RECORD,
  severityOfScore,
  type StoredWordPressVulns,
  unpackRecordId,
  WORDFENCE_RECORD_URL,
  type WordPressRange,
} from '../lambdas/scanner/vulndb/wordpress.js';

const rangeSchema = z.strictObject({
  versionStartIncluding: z.string().optional(),
  versionStartExcluding: z.string().optional(),
  versionEndIncluding: z.string().optional(),
  versionEndExcluding: z.string().optional(),
  exact: z.string().optional(),
  all: z.literal(true).optional(),
  raw: z.string().optional(),
});

const recordSchema = z.object({
  cve: z.string().regex(/^CVE-\d{4}-\d{4,}$/),
  slug: z.string().nullable(),
  title: z.string(),
  cvss_score: z.number().nullable(),
  cvss_vector: z.string().nullable(),
  severity: z.string().nullable(),
  affected: z.array(rangeSchema).min(1),
  fixed_in: z.string().optional(),
  kev: z.object({ dateAdded: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), knownRansomwareCampaignUse: z.string() }).optional(),
  epss: z.number().optional(),
  epss_percentile: z.number().optional(),
  wordfence_url: z.string().startsWith(WORDFENCE_RECORD_URL),
  wordfence_urls_extra: z.array(z.string().startsWith(WORDFENCE_RECORD_URL)).optional(),
});
type SourceRecord = z.infer<typeof recordSchema>;

/** The date of the Wordfence data (the nuclei-wordfence-cve commit the shared README names). */
const DATA_DATE = '2026-08-22';

/** Characters a stored version may hold: anything else would break the record format. */
const STORED_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;

export interface WordPressVulnsBuild {
  plugins: { records: number; slugs: number };
  themes: { records: number; slugs: number };
  bytes: number;
  sourceBytes: number;
}

/**
 * The kind of flaw from a Wordfence title: what follows the product and its affected versions, up to
 * " via " (the parameter or function, which the record's page names): "0 Day Analytics <= 4.0.0 -
 * Authenticated (Administrator+) SQL Injection" → "Authenticated (Administrator+) SQL Injection".
 */
export function flawKind(title: string): string {
  const text = title.replace(/&amp;/g, '&').replace(/&#0?39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ').trim();
  const bound = [...text.matchAll(/(?:<=|<|≤|>=)\s*v?\.?\d[\w.]*(?:\s*\([^)]*\))?/g)].at(-1);
  let rest: string;
  if (bound) {
    rest = text.slice(bound.index + bound[0].length);
    // "<= 3.1 beta.4 - Stored XSS", "<= 1.0 - 07-2019 - SQL Injection": the kind follows the last " - ".
    const dash = [...rest.matchAll(/\s[-–—]+\s/g)].at(-1);
    if (dash) rest = rest.slice(dash.index + dash[0].length);
  } else {
    const dash = [...text.matchAll(/\s[-–—]+\s|[-–—]\s(?=[A-Z])|\s[-–—](?=[A-Z])/g)].at(-1);
    rest = dash ? text.slice(dash.index + dash[0].length) : text;
  }
  rest = rest.replace(/^[\s\-–—:,]+/, '').replace(/\s+via\s.*$/i, '').replace(/[\s.:;,-]+$/, '').trim();
  if (!rest) return 'Vulnerability';
  return rest[0]!.toUpperCase() + rest.slice(1);
}

/** A raw bound ("<= v1.2.2", "<= 44.0 (17-08-2023)", "< .47.1", "<= 3.0 (Beta r7)") as a range, or undefined. */
export function rangeFromRaw(raw: string): WordPressRange | undefined {
  const match = /^(<=|<)\s*(?:[vp]\.?)?\s*(\d*\.?\d+(?:\.\d+)*)(.*)$/i.exec(raw.trim());
  if (!match) return undefined;
  const [, operator, number, tail = ''] = match;
  let version = number!.startsWith('.') ? `0${number}` : number!;
  const pre = /\b(alpha|beta|rc)\b\s*r?(\d*)|β/i.exec(tail);
  if (pre) version = `${version}-${(pre[1] ?? 'beta').toLowerCase()}${pre[2] ?? ''}`;
  return operator === '<=' ? { endIncluding: version } : { endExcluding: version };
}

interface Changes {
  rawRanges: string[];
  droppedRanges: string[];
  droppedRecords: string[];
  startExcluding: string[];
}

function rangesOf(record: SourceRecord, changes: Changes): WordPressRange[] {
  const ranges: WordPressRange[] = [];
  for (const range of record.affected) {
    const where = `${record.cve} ${record.slug}`;
    if (range.raw !== undefined) {
      const parsed = rangeFromRaw(range.raw);
      if (parsed) changes.rawRanges.push(`${where}: "${range.raw}" → \`${formatRange(parsed)}\``);
      else changes.droppedRanges.push(`${where}: "${range.raw}" (not a version)`);
      if (parsed) ranges.push(parsed);
      continue;
    }
    if (range.all) {
      ranges.push({ all: true });
      continue;
    }
    if (range.exact !== undefined) {
      ranges.push({ exact: range.exact });
      continue;
    }
    if (range.versionStartExcluding !== undefined) changes.startExcluding.push(`${where}: > ${range.versionStartExcluding} read as >=`);
    const start = range.versionStartIncluding ?? range.versionStartExcluding;
    ranges.push({
      ...(start !== undefined ? { startIncluding: start } : {}),
      ...(range.versionEndIncluding !== undefined ? { endIncluding: range.versionEndIncluding } : {}),
      ...(range.versionEndExcluding !== undefined ? { endExcluding: range.versionEndExcluding } : {}),
    });
  }
  // Every bound must be a version the matcher reads, and fit the record format.
  return ranges.filter((range) => {
    const bounds = [range.exact, range.startIncluding, range.endIncluding, range.endExcluding].filter((b): b is string => b !== undefined);
    const bad = bounds.find((bound) => !STORED_VERSION.test(bound) || !parseVersion(bound));
    if (bad) changes.droppedRanges.push(`${record.cve} ${record.slug}: bound "${bad}" is not a version`);
    return bad === undefined && (range.all || bounds.length > 0);
  });
}

function readRecords(path: string): { text: string; records: SourceRecord[] } {
  const text = readFileSync(path, 'utf8');
  const records = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const parsed = recordSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${path}:${index + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
  return { text, records };
}

/** Reads `<sourceDir>/wordpress-plugins.jsonl` and `wordpress-themes.jsonl`, writes wordpress-vulns.json and WORDPRESS-PROVENANCE.md into `outDir`. */
export function buildWordPressVulns(sourceDir: string, outDir: string): WordPressVulnsBuild {
  const changes: Changes = { rawRanges: [], droppedRanges: [], droppedRecords: [], startExcluding: [] };
  const cvss = new Map<string, number>();
  const kinds = new Map<string, number>();
  const index = (table: Map<string, number>, key: string) => {
    if (!table.has(key)) table.set(key, table.size);
    return table.get(key)!.toString(36);
  };
  const sources = { plugins: readRecords(join(sourceDir, 'wordpress-plugins.jsonl')), themes: readRecords(join(sourceDir, 'wordpress-themes.jsonl')) };
  const counts = { kev: 0, epss: 0, fixed: 0, severity: new Map<string, number>() };

  const encodeAll = (records: readonly SourceRecord[]) => {
    const bySlug = new Map<string, string[]>();
    for (const record of records) {
      if (!record.slug) {
        changes.droppedRecords.push(`${record.cve}: no slug (${record.title})`);
        continue;
      }
      if (/[|;]/.test(record.slug)) throw new Error(`slug ${record.slug} holds a separator`);
      const ranges = rangesOf(record, changes);
      if (ranges.length === 0) {
        changes.droppedRecords.push(`${record.cve} ${record.slug}: no usable range`);
        continue;
      }
      const lone = ranges.length === 1 ? ranges[0]!.endExcluding : undefined;
      const fixed = record.fixed_in !== undefined && record.fixed_in !== lone && STORED_VERSION.test(record.fixed_in) && parseVersion(record.fixed_in) ? record.fixed_in : '';
      if (record.fixed_in !== undefined || lone !== undefined) counts.fixed++;
      const ids = [record.wordfence_url, ...(record.wordfence_urls_extra ?? [])].map((url) => {
        const uuid = url.slice(WORDFENCE_RECORD_URL.length);
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid) || unpackRecordId(packRecordId(uuid)) !== uuid) throw new Error(`${record.cve}: record URL ${url} is not a Wordfence record id`);
        return packRecordId(uuid);
      });
      const score = record.cvss_score ?? undefined;
      const cvssKey = record.cvss_vector && score !== undefined ? index(cvss, JSON.stringify([record.cvss_vector, score])) : '';
      const epss = record.epss !== undefined && record.epss_percentile !== undefined ? `${record.epss}${ALTERNATIVE}${record.epss_percentile}` : '';
      const kev = record.kev ? `${record.kev.dateAdded}${record.kev.knownRansomwareCampaignUse === 'Known' ? '!' : ''}` : '';
      if (kev) counts.kev++;
      if (epss) counts.epss++;
      const severity = severityOfScore(score);
      counts.severity.set(severity, (counts.severity.get(severity) ?? 0) + 1);
      const fields = [record.cve.slice(4), cvssKey, index(kinds, flawKind(record.title)), ranges.map(formatRange).join(ALTERNATIVE), fixed, ids.join(ALTERNATIVE), epss, kev];
      while (fields.at(-1) === '') fields.pop();
      const list = bySlug.get(record.slug) ?? [];
      list.push(fields.join(FIELD));
      bySlug.set(record.slug, list);
    }
    return new Map([...bySlug].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  };
  const plugins = encodeAll(sources.plugins.records);
  const themes = encodeAll(sources.themes.records);

  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const header: Omit<StoredWordPressVulns, 'plugins' | 'themes'> = {
    format: 1,
    dataDate: DATA_DATE,
    sourceSha256: { plugins: sha(sources.plugins.text), themes: sha(sources.themes.text) },
    cvss: [...cvss.keys()].map((key) => JSON.parse(key) as [string, number]),
    kinds: [...kinds.keys()],
  };
  const table = (slugs: Map<string, string[]>) => `{\n${[...slugs].map(([slug, records]) => `${JSON.stringify(slug)}:${JSON.stringify(records.join(RECORD))}`).join(',\n')}\n}`;
  const json = `${JSON.stringify(header).slice(0, -1)},\n"plugins":${table(plugins)},\n"themes":${table(themes)}}\n`;
  writeFileSync(join(outDir, 'wordpress-vulns.json'), json);

  const bytes = Buffer.byteLength(json);
  const sourceBytes = Buffer.byteLength(sources.plugins.text) + Buffer.byteLength(sources.themes.text);
  const recordsOf = (slugs: Map<string, string[]>) => [...slugs.values()].reduce((sum, records) => sum + records.length, 0);
  const build: WordPressVulnsBuild = {
    plugins: { records: recordsOf(plugins), slugs: plugins.size },
    themes: { records: recordsOf(themes), slugs: themes.size },
    bytes,
    sourceBytes,
  };
  writeFileSync(
    join(outDir, 'WORDPRESS-PROVENANCE.md'),
    provenance({ build, header, changes, counts, sourceRecords: { plugins: sources.plugins.records.length, themes: sources.themes.records.length } }),
  );
  return build;
}

function list(lines: readonly string[]): string {
  return lines.length === 0 ? '- none\n' : `${lines.map((line) => `- ${line}`).join('\n')}\n`;
}

function provenance(p: {
  build: WordPressVulnsBuild;
  header: Omit<StoredWordPressVulns, 'plugins' | 'themes'>;
  changes: Changes;
  counts: { kev: number; epss: number; fixed: number; severity: Map<string, number> };
  sourceRecords: { plugins: number; themes: number };
}): string {
  const severity = ['critical', 'high', 'medium', 'low', 'unknown'].map((band) => `${p.counts.severity.get(band) ?? 0} ${band}`).join(', ');
  return `# WordPress plugin and theme vulnerabilities: provenance

Generated by \`npm run build:vulndb\` (\`buildWordPressVulns\` in bin/build-wordpress-vulns.ts) from
\`shared/data/vulndb/wordpress-plugins.jsonl\` and \`wordpress-themes.jsonl\`. Do not edit: rebuild. The
scanner reads only \`wordpress-vulns.json\` (bundled, loaded on first use by
lambdas/scanner/vulndb/wordpress.ts), never the shared data.

| file | bytes | what |
|---|---|---|
| wordpress-vulns.json | ${p.build.bytes} | ${p.build.plugins.records} plugin records (${p.build.plugins.slugs} slugs) and ${p.build.themes.records} theme records (${p.build.themes.slugs} slugs), one per CVE and slug; ${p.header.cvss.length} distinct CVSS vectors, ${p.header.kinds.length} kinds of flaw |

The source files are ${p.build.sourceBytes} bytes (${p.sourceRecords.plugins} + ${p.sourceRecords.themes} records). Severity by CVSS v3
score: ${severity}. In CISA KEV: ${p.counts.kev} records. With EPSS: ${p.counts.epss}. With a known first fixed version: ${p.counts.fixed}.

## Sources

| what | value |
|---|---|
| Wordfence Intelligence records with a CVE id | as generated into topscoder/nuclei-wordfence-cve at commit 144dcc0c66d7ef8b27fa24e7843d6e5527c3e02e (${p.header.dataDate}); record pages \`${WORDFENCE_RECORD_URL}<id>\` |
| first fixed versions, published dates | CISA vulnrichment CVE records (Patchstack "unaffected at" versions), CC0 1.0 |
| EPSS | FIRST EPSS for CISA KEV CVEs (2026-08), else the ProjectDiscovery nuclei template's (2025-06-14, MIT) |
| KEV | CISA Known Exploited Vulnerabilities catalog (CC0 1.0) |
| input | \`shared/data/vulndb/wordpress-plugins.jsonl\` sha256 \`${p.header.sourceSha256.plugins}\`, \`wordpress-themes.jsonl\` sha256 \`${p.header.sourceSha256.themes}\` |

How the shared files were derived from these sources: \`shared/data/vulndb/README.md\`, section "WordPress
plugins and themes".

## What was kept, what was changed

Per record: the CVE id, CVSS v3 vector and score (severity is the score's CVSS v3 rating), the kind of flaw,
the affected version ranges, the first fixed version, CISA KEV (date added, ransomware use), EPSS and
percentile, and the Wordfence record id(s) from \`wordfence_url\` and \`wordfence_urls_extra\` (stored as
22 base64url characters each, read back as the record's URL). Left out, for size: the title's product name
and versions, \`published\`, \`cwe\`, \`cna\`, \`ssvc\`, the nuclei fields and the notes.

- **Kind of flaw**: Wordfence's title after the product name and the affected versions, up to " via "
  (what follows names a parameter or function, which the record's page gives): "0 Day Analytics <= 4.0.0
  - Authenticated (Administrator+) SQL Injection" → "Authenticated (Administrator+) SQL Injection".
- **Fixed version**: \`fixed_in\` where the source has it; a lone "< X" range is fixed in X (stored once).
  Records with only "<= X" have no known fixed release: the scanner advises "a release after X".
- **Slugs** are kept as written (premium products use capitals: \`Avada\`), since web servers compare paths
  case-sensitively.

Raw version bounds made readable (the range as stored):
${list(p.changes.rawRanges)}
Exclusive lower bounds (none expected in the source):
${list(p.changes.startExcluding)}
Ranges dropped (a bound that is not a version):
${list(p.changes.droppedRanges)}
Records dropped:
${list(p.changes.droppedRecords)}
## Gaps (from the shared README)

- Only vulnerabilities with a CVE id; Wordfence records without one (2,923 plugin, 374 theme) are not in the data.
- One range per slug where Wordfence lists several branches (\`affected_note\` in the source marks titles
  that suggest it): a version in the other branch is not matched.
- No first fixed release for most "<= X" records; EPSS for only a few hundred records.
- Data as of ${p.header.dataDate}: CVEs published later are missing.

## Licences

**Wordfence Intelligence.** Each record carries this notice, which applies to the records in
wordpress-vulns.json. The scanner shows the link to each record (\`references\`, the finding's
\`cveDetails[].reference\`) and this copyright designation with every finding built from it:

> Copyright 2012-2026 Defiant Inc. Defiant hereby grants you a perpetual, worldwide, non-exclusive,
> no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of,
> publicly display, publicly perform, sublicense, and distribute this software vulnerability information.
> Any copy of the software vulnerability information you make for such purposes is authorized provided
> that you include a hyperlink to this vulnerability record and reproduce Defiant's copyright designation
> and this license in any such copy. Licence terms:
> https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/

**CVE.**

> Copyright 1999-2026 The MITRE Corporation. CVE Usage: MITRE hereby grants you a perpetual, worldwide,
> non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative
> works of, publicly display, publicly perform, sublicense, and distribute Common Vulnerabilities and
> Exposures (CVE®). Any copy you make for such purposes is authorized provided that you reproduce MITRE's
> copyright designation and this license in any such copy.

topscoder/nuclei-wordfence-cve (the generated templates the records were read from) and
projectdiscovery/nuclei-templates (EPSS for non-KEV records) are MIT licensed; CISA KEV and vulnrichment
are CC0 1.0; EPSS is FIRST's, free to use with attribution ("EPSS, FIRST.org").
`;
}
