import { describe, expect, it } from 'vitest';
import { historyEntry } from './audit-fixtures';
import {
  DEFAULT_SORT,
  filterAudits,
  formatSeconds,
  historyCsv,
  historyCsvFileName,
  NO_FILTERS,
  paginate,
  sortAudits,
} from './audit-list';

const ids = (audits: { id: string }[]) => audits.map((audit) => audit.id);

const audits = [
  historyEntry({ id: 'a', domain: 'Shop.Example.test', scanDate: '2025-03-02T00:00:00Z', riskScore: 90, riskLevel: 'low' }),
  historyEntry({ id: 'b', domain: 'blog.test', scanDate: '2025-03-03T00:00:00Z', status: 'in_progress', riskScore: null, riskLevel: null, tier: 'pro' }),
  historyEntry({ id: 'c', domain: 'api.example.test', scanDate: '2025-03-01T00:00:00Z', riskScore: 55, riskLevel: 'high', tier: 'pro' }),
  historyEntry({ id: 'd', domain: 'zeta.test', scanDate: '2025-03-04T00:00:00Z', status: 'failed', riskScore: null, riskLevel: null }),
  historyEntry({ id: 'e', domain: 'mid.test', scanDate: '2025-02-28T00:00:00Z', riskScore: 70, riskLevel: 'medium' }),
];

describe('filterAudits', () => {
  it('matches the search anywhere in the domain, ignoring case and surrounding spaces', () => {
    expect(ids(filterAudits(audits, { ...NO_FILTERS, search: '  EXAMPLE ' }))).toEqual(['a', 'c']);
  });

  it('keeps only the chosen status, tier and risk level', () => {
    expect(ids(filterAudits(audits, { ...NO_FILTERS, status: 'in_progress' }))).toEqual(['b']);
    expect(ids(filterAudits(audits, { ...NO_FILTERS, tier: 'pro-audit' }))).toEqual(['b', 'c']);
    expect(ids(filterAudits(audits, { ...NO_FILTERS, risk: 'medium' }))).toEqual(['e']);
    expect(ids(filterAudits(audits, { ...NO_FILTERS, tier: 'pro-audit', risk: 'high', search: 'api' }))).toEqual(['c']);
  });
});

describe('sortAudits', () => {
  it('sorts by date, newest first by default', () => {
    expect(ids(sortAudits(audits, DEFAULT_SORT))).toEqual(['d', 'b', 'a', 'c', 'e']);
    expect(ids(sortAudits(audits, { key: 'date', direction: 'asc' }))).toEqual(['e', 'c', 'a', 'b', 'd']);
  });

  it('sorts by domain alphabetically, either way', () => {
    expect(ids(sortAudits(audits, { key: 'domain', direction: 'asc' }))).toEqual(['c', 'b', 'e', 'a', 'd']);
    expect(ids(sortAudits(audits, { key: 'domain', direction: 'desc' }))).toEqual(['d', 'a', 'e', 'b', 'c']);
  });

  it('sorts by score and puts audits without one last in both directions', () => {
    expect(ids(sortAudits(audits, { key: 'score', direction: 'asc' }))).toEqual(['c', 'e', 'a', 'b', 'd']);
    expect(ids(sortAudits(audits, { key: 'score', direction: 'desc' }))).toEqual(['a', 'e', 'c', 'b', 'd']);
  });

  it('leaves the list it was given unchanged', () => {
    const before = ids(audits);
    sortAudits(audits, { key: 'domain', direction: 'asc' });
    expect(ids(audits)).toEqual(before);
  });
});

describe('paginate', () => {
  const rows = Array.from({ length: 25 }, (_, index) => index + 1);

  it('cuts 25 rows into 3 pages of 10, 10 and 5', () => {
    expect(paginate(rows, 1)).toMatchObject({ rows: rows.slice(0, 10), page: 1, pageCount: 3, first: 1, last: 10, total: 25 });
    expect(paginate(rows, 3)).toMatchObject({ rows: [21, 22, 23, 24, 25], page: 3, first: 21, last: 25 });
  });

  it('clamps a page past either end and reports one empty page for no rows', () => {
    expect(paginate(rows, 9).page).toBe(3);
    expect(paginate(rows, 0).page).toBe(1);
    expect(paginate([], 1)).toEqual({ rows: [], page: 1, pageCount: 1, first: 0, last: 0, total: 0 });
  });
});

describe('historyCsv', () => {
  it('writes the spec columns, ISO dates, the product names the table shows, the shown status, empty cells for missing values and seconds', () => {
    // Act
    const csv = historyCsv([audits[1]!, historyEntry({ id: 'q', domain: 'evil,"quoted".test', scanDate: '2025-03-05T10:15:00+10:00', scanDuration: 61 })]);

    // Assess
    expect(csv.split('\r\n')).toEqual([
      'Date,Domain,Tier,Status,Risk Score,Issues,Duration',
      '2025-03-03T00:00:00.000Z,blog.test,Pro Audit,in progress,,2,42',
      '2025-03-05T00:15:00.000Z,"evil,""quoted"".test",Free report,completed,85,2,61',
      '',
    ]);
  });

  it('neutralises a domain that starts like a formula', () => {
    expect(historyCsv([historyEntry({ id: 'f', domain: '=cmd|calc.test' })]).split('\r\n')[1]).toContain(",'=cmd|calc.test,");
  });
});

describe('formatting', () => {
  it('names the export with the local date', () => {
    expect(historyCsvFileName(new Date(2025, 0, 9, 23, 59))).toBe('audit-history-2025-01-09.csv');
  });

  it('shows durations in seconds, then minutes and seconds', () => {
    expect([formatSeconds(null), formatSeconds(45), formatSeconds(125)]).toEqual(['—', '45 s', '2 min 5 s']);
  });
});
