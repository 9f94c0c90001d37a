import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownProducts, productData } from '../../../lambdas/scanner/vulndb/knowledge-base.js';
import { isAffected } from '../../../lambdas/scanner/vulndb/range.js';
import { compareParsed } from '../../../lambdas/scanner/vulndb/version.js';

const dataDir = resolve('lambdas/scanner/data');
const provenance = readFileSync(join(dataDir, 'PROVENANCE.md'), 'utf8');

/** The "Counts per product" table of PROVENANCE.md, by product id. */
function provenanceCounts(): Map<string, Record<string, number>> {
  const section = provenance.split('## Counts per product')[1]!.split('\n## ')[0]!;
  const rows = section.split('\n').filter((line) => /^\| [a-z@]/.test(line) && !line.startsWith('| id '));
  const columns = ['records', 'ranged', 'unranged', 'cvss', 'vendor', 'v2', 'none', 'kev', 'epss', 'eol'];
  return new Map(
    rows.map((row) => {
      const cells = row.split('|').slice(1, -1).map((cell) => cell.trim());
      return [cells[0]!, Object.fromEntries(columns.map((column, index) => [column, Number(cells[index + 3])]))];
    }),
  );
}

describe('the committed knowledge base', () => {
  it('loads every product with the counts PROVENANCE.md states', () => {
    // Prepare
    const counts = provenanceCounts();

    // Act
    const products = knownProducts().map((info) => productData(info.id)!);

    // Assess
    expect(products).toHaveLength(counts.size);
    expect(counts.size).toBe(95);
    for (const product of products) {
      const expected = counts.get(product.info.id);
      const list = product.vulnerabilities.map((entry) => entry.vulnerability);
      const by = (source: string) => list.filter((v) => v.scoreSource === source).length;
      expect({
        id: product.info.id,
        records: list.length,
        ranged: list.filter((v) => v.affected.length > 0).length,
        unranged: product.unranged.length,
        cvss: by('cvss'),
        vendor: by('vendor-severity'),
        v2: by('cvss-v2-severity'),
        none: by('none'),
        kev: list.filter((v) => v.exploited).length,
        epss: list.filter((v) => v.epss !== undefined).length,
        eol: product.endOfLife.length,
      }).toEqual({ id: product.info.id, ...expected });
    }
    expect(provenance).toMatch(/\| \*\*total\*\* \| \| \| 2754 \| 2717 \| 37 \|/);
  });

  it('states a score source for every record and a CVSS score exactly when the source is cvss', () => {
    for (const info of knownProducts()) {
      for (const { vulnerability: v } of productData(info.id)!.vulnerabilities) {
        expect(['cvss', 'vendor-severity', 'cvss-v2-severity', 'none']).toContain(v.scoreSource);
        expect(v.cvssScore !== undefined).toBe(v.scoreSource === 'cvss');
        expect(v.severity === 'unknown').toBe(v.scoreSource === 'none');
        expect(v.summary.length).toBeGreaterThan(0);
        expect(v.summary.length).toBeLessThanOrEqual(200);
        expect(v.references.length).toBeLessThanOrEqual(2);
      }
    }
  });

  it('keeps ids unique and sorted, candidates sorted, and no safe version affected by anything', () => {
    for (const info of knownProducts()) {
      const product = productData(info.id)!;
      const ids = product.vulnerabilities.map((entry) => entry.vulnerability.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const list of [product.fixCandidates, product.safeVersions]) {
        for (let i = 1; i < list.length; i++) expect(compareParsed(list[i - 1]!.parsed, list[i]!.parsed)).toBeLessThan(0);
      }
      for (const safe of product.safeVersions) {
        expect(product.vulnerabilities.some((entry) => isAffected(safe.parsed, entry.affected, entry.unaffected, product.options))).toBe(false);
      }
    }
  });

  it('takes "exploited" from the CISA KEV catalog, including records the CVE files did not mark', () => {
    const exploited = (product: string, id: string) => productData(product)!.vulnerabilities.find((entry) => entry.vulnerability.id === id)!.vulnerability;
    expect(exploited('nginx', 'CVE-2023-44487')).toMatchObject({ exploited: true, kevDateAdded: '2023-10-10' });
    expect(exploited('apache_http_server', 'CVE-2021-40438')).toMatchObject({ exploited: true });
    expect(exploited('proftpd', 'CVE-2015-3306').exploited).toBe(false);
  });

  it('is not read from ../shared at run time: the scanner code only imports the bundled JSON', () => {
    for (const file of ['knowledge-base.ts', 'match.ts', 'finding.ts', 'range.ts', 'version.ts', 'backport.ts', 'products.ts', 'index.ts']) {
      const source = readFileSync(resolve('lambdas/scanner/vulndb', file), 'utf8');
      expect(source).not.toMatch(/shared\/data|node:fs|readFileSync/);
    }
  });
});

const sharedData = resolve('../shared/data/vulndb');

describe('npm run build:vulndb', () => {
  it.skipIf(!existsSync(sharedData))('rebuilds byte-identical files from the same input', () => {
    // Prepare
    const out = mkdtempSync(join(tmpdir(), 'vulndb-'));
    try {
      // Act
      execFileSync(resolve('node_modules/.bin/tsx'), ['bin/build-vulndb.ts', '--source', sharedData, '--out', out], { stdio: 'pipe' });

      // Assess
      for (const file of ['vulndb.json', 'PROVENANCE.md', 'top-ports.json']) {
        expect(readFileSync(join(out, file)).equals(readFileSync(join(dataDir, file))), `${file} differs from the committed one`).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
