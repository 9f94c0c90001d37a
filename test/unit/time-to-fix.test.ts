import { describe, expect, it } from 'vitest';
import { alertEmail, alertSms, changeSummaryParts } from '../../lambdas/domain/alert-messages.js';
import { changeTitle } from '../../lambdas/domain/monitoring.js';
import { withoutMutedFindings } from '../../lambdas/domain/security-policy.js';
import type { CheckResult, Finding, Severity } from '../../lambdas/domain/audit.js';
import type { MonitoredScan } from '../../lambdas/domain/monitoring-diff.js';
import {
  AGE_BUCKETS,
  applyScan,
  dueAt,
  emptyHistory,
  fixedOnTime,
  type IssueHistory,
  isOverdue,
  MAX_OCCURRENCES,
  monthTimeToFix,
  overdueChanges,
  REOPEN_WITHIN_DAYS,
  summariseTimeToFix,
  TIME_TO_FIX_TARGET_DAYS,
  timeToFixDays,
} from '../../lambdas/domain/time-to-fix.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-06-01T00:00:00.000Z');
const day = (n: number) => new Date(T0 + n * DAY).toISOString();
const DOMAIN = 'shop.example.test';

const finding = (id: string, severity: Severity, check = 'http'): Finding => ({
  id,
  check,
  title: `Title of ${id}`,
  severity,
  category: 'Web Security',
  description: 'Planted.',
  recommendation: 'Fix it.',
});

interface ScanSpec {
  /** The findings each check showed; a check named here finished `ok` unless `status` says otherwise. */
  checks: Record<string, Finding[]>;
  status?: Record<string, CheckResult['status']>;
  /** Checks limited to their passive part (data.notChecked). */
  limited?: string[];
  /** The page the http check reached (default https://www.shop.example.test/, loaded 200); `null`: the landing page did not load (it answered 503). */
  reached?: string | null;
  /** The URL the scan was asked for (default: the page reached, or https://www.shop.example.test/). */
  targetUrl?: string;
}

const SITE = `https://www.${DOMAIN}/`;

/** The http check's stored data for a landing page at `url` that answered `status`. */
const landingData = (url: string, status = 200) => ({ url, analyzed: url.startsWith('https:') ? 'https' : 'http', observatory: { statusCode: status } });

let counter = 0;
/** A completed scan of DOMAIN on day `n`. */
function scanOn(n: number, spec: ScanSpec): MonitoredScan {
  counter += 1;
  return {
    id: `scan-${counter}`,
    host: `www.${DOMAIN}`,
    status: 'completed',
    completedAt: day(n),
    targetUrl: spec.targetUrl ?? spec.reached ?? SITE,
    checks: Object.entries({ http: [], ...spec.checks }).map(([name, findings]) => ({
      name,
      status: spec.status?.[name] ?? 'ok',
      findings,
      ...(name === 'http' || spec.limited?.includes(name)
        ? {
            data: {
              ...(name === 'http' ? (spec.reached === null ? landingData(SITE, 503) : landingData(spec.reached ?? SITE)) : {}),
              ...(spec.limited?.includes(name) ? { notChecked: ['Part left out'] } : {}),
            },
          }
        : {}),
    })),
  };
}

const fold = (...scans: MonitoredScan[]): IssueHistory => scans.reduce(applyScan, emptyHistory(DOMAIN));
const only = (history: IssueHistory) => {
  expect(history.occurrences).toHaveLength(1);
  return history.occurrences[0]!;
};

const HSTS = finding('tls.hsts-missing', 'medium', 'tls');
const RDP = finding('ports.remote-access.rdp', 'critical', 'ports');

describe('time-to-fix: an issue across rescans', () => {
  it('appears, stays open, then is fixed: first seen, last seen and fixed at are the scans that saw each', () => {
    const appear = scanOn(0, { checks: { tls: [HSTS], ports: [] } });
    const still = scanOn(10, { checks: { tls: [HSTS], ports: [] } });
    const fixed = scanOn(25, { checks: { tls: [], ports: [] } });

    const afterTwo = fold(appear, still);
    const history = applyScan(afterTwo, fixed);

    expect(only(afterTwo)).toMatchObject({ firstSeenAt: day(0), lastSeenAt: day(10), lastSeenAuditId: still.id, reopened: 0 });
    expect(only(afterTwo).fixedAt).toBeUndefined();
    const occurrence = only(history);
    expect(occurrence).toMatchObject({ findingId: HSTS.id, severity: 'medium', check: 'tls', firstSeenAt: day(0), firstSeenAuditId: appear.id, lastSeenAt: day(10), fixedAt: day(25), fixedAuditId: fixed.id });
    expect(timeToFixDays(occurrence)).toBe(25);
    expect(fixedOnTime(occurrence)).toBe(true);
    expect([history.lastScanAt, history.lastAuditId]).toEqual([day(25), fixed.id]);
  });

  it('ignores observations (info findings)', () => {
    const history = fold(scanOn(0, { checks: { http: [finding('http.server-header', 'info')] } }));

    expect(history.occurrences).toEqual([]);
  });

  it('a passive rescan (a check limited to its passive part, or skipped) fixes nothing; the next full scan does', () => {
    const appear = scanOn(0, { checks: { tls: [], ports: [RDP] } });
    const limited = scanOn(3, { checks: { tls: [], ports: [] }, limited: ['ports'] });
    const skipped = scanOn(4, { checks: { tls: [], ports: [] }, status: { ports: 'skipped' } });
    const full = scanOn(6, { checks: { tls: [], ports: [] } });

    const afterPassive = fold(appear, limited, skipped);
    const afterFull = applyScan(afterPassive, full);

    expect(only(afterPassive).fixedAt).toBeUndefined();
    expect(afterPassive.lastScanAt).toBe(day(4));
    expect(only(afterFull).fixedAt).toBe(day(6));
  });

  it('a check that failed or timed out fixes nothing, and a check that did not run at all neither', () => {
    const appear = scanOn(0, { checks: { tls: [HSTS], ports: [RDP] } });
    const failed = scanOn(1, { checks: { tls: [], ports: [] }, status: { tls: 'error', ports: 'timeout' } });
    const missing = scanOn(2, { checks: { http: [] } });

    const history = fold(appear, failed, missing);

    expect(history.occurrences.map((o) => o.fixedAt)).toEqual([undefined, undefined]);
  });

  it('an issue seen only after a passive scan is fixed when a full scan no longer has it, though the scan before did not compare', () => {
    // monitoring's pairwise diff needs the check `ok` in both scans; the history only needs the scan that fixes.
    const history = fold(scanOn(0, { checks: { ports: [RDP] } }), scanOn(1, { checks: { ports: [] }, limited: ['ports'] }), scanOn(2, { checks: { ports: [] } }));

    expect(only(history).fixedAt).toBe(day(2));
  });

  it('is safe to repeat: a scan not newer than the last one folded in changes nothing', () => {
    const appear = scanOn(0, { checks: { tls: [HSTS] } });
    const fixed = scanOn(5, { checks: { tls: [] } });
    const history = fold(appear, fixed);

    expect(applyScan(history, fixed)).toBe(history);
    expect(applyScan(history, appear)).toBe(history);
    expect(applyScan(history, { ...scanOn(9, { checks: { tls: [HSTS] } }), status: 'failed' })).toBe(history);
  });

  it('keeps the worst severity an occurrence was seen with, so a downgrade never moves its due date later', () => {
    const history = fold(scanOn(0, { checks: { http: [finding('x', 'high')] } }), scanOn(1, { checks: { http: [finding('x', 'low')] } }));

    expect(only(history).severity).toBe('high');
    expect(dueAt(only(history))).toBe(day(30));
  });
});

describe('time-to-fix: only the same site, seen (DECISIONS "Rescan target")', () => {
  const JQUERY = finding('cve.jquery', 'critical', 'software');
  const HTTP_ONLY = 'http://shop.example.test:8081/';

  it('the scan of https:// of an http-only site fixes none of the page issues the scans of http:// found; the next scan of http:// that no longer has them does', () => {
    const seen = scanOn(0, { checks: { software: [JQUERY], tls: [] }, reached: HTTP_ONLY });
    const wrongScheme = scanOn(2, { checks: { software: [], tls: [] }, targetUrl: 'https://shop.example.test:8081/', reached: HTTP_ONLY });
    const stillThere = scanOn(3, { checks: { software: [JQUERY], tls: [] }, reached: HTTP_ONLY });
    const fixed = scanOn(5, { checks: { software: [], tls: [] }, reached: HTTP_ONLY });

    const afterWrong = fold(seen, wrongScheme);
    expect(only(afterWrong).fixedAt).toBeUndefined();
    expect(afterWrong.lastSite).toBe('https http://shop.example.test:8081');
    // Back on http://, compared with the https:// scan: not the same site, so still nothing fixed; seen again, it stays open.
    expect(only(applyScan(afterWrong, stillThere))).toMatchObject({ firstSeenAt: day(0), lastSeenAt: day(3), reopened: 0 });
    const history = fold(seen, wrongScheme, stillThere, fixed);
    expect(only(history)).toMatchObject({ findingId: 'cve.jquery', fixedAt: day(5), fixedAuditId: fixed.id });
    expect(summariseTimeToFix([history], new Date(day(5))).fixedTotal).toBe(1);
  });

  it('a scan whose landing page did not load fixes nothing, not even a closed port; the site it saw last stays the one compared with', () => {
    const seen = scanOn(0, { checks: { software: [JQUERY], ports: [RDP] } });
    const down = scanOn(2, { checks: { software: [], ports: [] }, reached: null });

    const history = fold(seen, down);

    expect(history.occurrences.map((o) => [o.findingId, o.fixedAt])).toEqual([
      ['cve.jquery', undefined],
      ['ports.remote-access.rdp', undefined],
    ]);
    expect([history.lastAuditId, history.lastSite]).toEqual([down.id, 'https https://www.shop.example.test']);
    const summary = summariseTimeToFix([history], new Date(day(2)));
    expect([summary.fixedTotal, summary.fixedOnTimeShare, summary.openTotal]).toEqual([0, null, 2]);
    expect(applyScan(history, scanOn(4, { checks: { software: [], ports: [] } })).occurrences.every((o) => o.fixedAt === day(4))).toBe(true);
  });

  it('a history stored before sites were kept fixes no page issue at its next scan, then compares as usual', () => {
    const seen = scanOn(0, { checks: { software: [JQUERY], ports: [RDP] } });
    const { lastSite: _dropped, ...legacy } = fold(seen);
    const next = applyScan(legacy, scanOn(2, { checks: { software: [], ports: [] } }));
    expect(next.occurrences.map((o) => [o.findingId, o.fixedAt])).toEqual([
      ['cve.jquery', undefined],
      ['ports.remote-access.rdp', day(2)],
    ]);
    expect(only({ ...next, occurrences: next.occurrences.filter((o) => o.check === 'software') }).fixedAt).toBeUndefined();
    expect(applyScan(next, scanOn(3, { checks: { software: [], ports: [] } })).occurrences.find((o) => o.check === 'software')?.fixedAt).toBe(day(3));
  });
});

describe('time-to-fix: an issue that comes back', () => {
  it(`within ${REOPEN_WITHIN_DAYS} days of its fix reopens the same occurrence: first seen and due date stand, the fix no longer counts`, () => {
    const history = fold(
      scanOn(0, { checks: { ports: [RDP] } }),
      scanOn(3, { checks: { ports: [] } }),
      scanOn(3 + REOPEN_WITHIN_DAYS, { checks: { ports: [RDP] } }),
    );

    const occurrence = only(history);
    expect(occurrence).toMatchObject({ firstSeenAt: day(0), lastSeenAt: day(3 + REOPEN_WITHIN_DAYS), reopened: 1 });
    expect(occurrence.fixedAt).toBeUndefined();
    expect(isOverdue(occurrence, new Date(day(3 + REOPEN_WITHIN_DAYS)))).toBe(true);
  });

  it('later than that is a new occurrence with its own clock; the earlier one keeps its time to fix', () => {
    const history = fold(
      scanOn(0, { checks: { ports: [RDP] } }),
      scanOn(3, { checks: { ports: [] } }),
      scanOn(4 + REOPEN_WITHIN_DAYS, { checks: { ports: [RDP] } }),
    );

    expect(history.occurrences.map((o) => [o.firstSeenAt, o.fixedAt, o.reopened])).toEqual([
      [day(0), day(3), 0],
      [day(4 + REOPEN_WITHIN_DAYS), undefined, 0],
    ]);
    expect(timeToFixDays(history.occurrences[0]!)).toBe(3);
  });
});

describe('time-to-fix: due dates and overdue, per severity', () => {
  it.each(Object.entries(TIME_TO_FIX_TARGET_DAYS))('%s: due %i days after first seen; not overdue at the due instant, overdue a second later', (severity, days) => {
    const history = fold(scanOn(0, { checks: { http: [finding('x', severity as Severity)] } }));
    const occurrence = only(history);
    const due = T0 + days * DAY;

    expect(dueAt(occurrence)).toBe(new Date(due).toISOString());
    expect(isOverdue(occurrence, new Date(due))).toBe(false);
    expect(isOverdue(occurrence, new Date(due + 1000))).toBe(true);
  });

  it.each([
    ['critical', 7, true],
    ['critical', 8, false],
    ['high', 30, true],
    ['high', 31, false],
    ['medium', 60, true],
    ['medium', 61, false],
    ['low', 120, true],
    ['low', 121, false],
  ] as const)('%s fixed after %i days: on time %s', (severity, days, onTime) => {
    const history = fold(scanOn(0, { checks: { http: [finding('x', severity)] } }), scanOn(days, { checks: { http: [] } }));

    expect(fixedOnTime(only(history))).toBe(onTime);
    expect(timeToFixDays(only(history))).toBe(days);
  });

  it('targets are 7, 30, 60 and 120 days', () => {
    expect(TIME_TO_FIX_TARGET_DAYS).toEqual({ critical: 7, high: 30, medium: 60, low: 120 });
  });

  it('names each overdue issue once per occurrence, with its due date and days overdue at the scan', () => {
    const history = fold(scanOn(0, { checks: { ports: [RDP], tls: [HSTS] } }), scanOn(10, { checks: { ports: [RDP], tls: [HSTS] } }));

    expect(overdueChanges(history)).toEqual([
      {
        type: 'issue_overdue',
        domain: DOMAIN,
        dedupeKey: `${DOMAIN}|issue_overdue|${RDP.id}|${day(0)}`,
        findingId: RDP.id,
        title: RDP.title,
        severity: 'critical',
        category: 'Web Security',
        firstSeenAt: day(0),
        dueAt: day(7),
        targetDays: 7,
        daysOverdue: 3,
      },
    ]);
  });
});

describe('time-to-fix: the dashboard figures', () => {
  it('counts open issues by age bucket with the overdue ones, the share fixed on time and the mean time to fix per month', () => {
    const crit = finding('crit', 'critical');
    const high = finding('high', 'high');
    const med = finding('med', 'medium');
    const low = finding('low', 'low');
    // Day 0 = 1 June. crit fixed 1 July (30 days: late); high fixed 11 June (10 days: on time); med and low stay open.
    const history = fold(
      scanOn(0, { checks: { http: [crit, high, med] } }),
      scanOn(10, { checks: { http: [crit, med] } }),
      scanOn(30, { checks: { http: [med, low] } }),
    );
    const now = new Date(day(70)); // 10 August: med open 70 days (overdue: 60), low open 40 days.

    const summary = summariseTimeToFix([history], now);

    expect(summary.openByAge.map((b) => [b.label, b.open, b.overdue])).toEqual([
      ['0–7 days', 0, 0],
      ['8–30 days', 0, 0],
      ['31–60 days', 1, 0],
      ['61–120 days', 1, 1],
      ['Over 120 days', 0, 0],
    ]);
    expect([summary.openTotal, summary.overdueTotal, summary.fixedTotal, summary.fixedOnTime, summary.fixedOnTimeShare, summary.meanDaysToFix]).toEqual([2, 1, 2, 1, 0.5, 20]);
    expect(summary.byMonth.map((m) => [m.month, m.fixed, m.fixedOnTime, m.meanDaysToFix])).toEqual([
      ['2026-03', 0, 0, null],
      ['2026-04', 0, 0, null],
      ['2026-05', 0, 0, null],
      ['2026-06', 1, 1, 10],
      ['2026-07', 1, 0, 30],
      ['2026-08', 0, 0, null],
    ]);
    expect(summary.open.map((o) => [o.findingId, o.ageDays, o.overdue, o.dueAt])).toEqual([
      ['med', 70, true, day(60)],
      ['low', 40, false, day(150)],
    ]);
    expect(summary.recentFixes.map((o) => [o.findingId, o.timeToFixDays, o.fixedOnTime])).toEqual([
      ['crit', 30, false],
      ['high', 10, true],
    ]);
  });

  it('has no share or mean before anything is fixed', () => {
    const summary = summariseTimeToFix([fold(scanOn(0, { checks: { http: [HSTS] } }))], new Date(day(1)));

    expect([summary.fixedOnTimeShare, summary.meanDaysToFix, summary.openTotal]).toEqual([null, null, 1]);
    expect(summary.openByAge.map((b) => b.open)).toEqual([1, 0, 0, 0, 0]);
    expect(AGE_BUCKETS).toHaveLength(5);
  });

  it("gives the monthly report the month's fixes and what is overdue now", () => {
    const history = fold(scanOn(0, { checks: { ports: [RDP], tls: [HSTS] } }), scanOn(5, { checks: { ports: [RDP], tls: [] } }));

    const month = monthTimeToFix(history, '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', new Date(day(30)));

    expect(month).toEqual({
      fixed: 1,
      fixedOnTime: 1,
      meanDaysToFix: 5,
      overdue: [{ findingId: RDP.id, title: RDP.title, severity: 'critical', firstSeenAt: day(0), dueAt: day(7), daysOverdue: 23 }],
    });
    expect(monthTimeToFix(undefined, day(0), day(30), new Date(day(30)))).toBeNull();
  });
});

describe('time-to-fix: what is kept', () => {
  it('drops fixes older than the audit results are kept (12 months), never an open issue', () => {
    const history = fold(scanOn(0, { checks: { http: [finding('old', 'low'), finding('open', 'low')] } }), scanOn(1, { checks: { http: [finding('open', 'low')] } }));

    const later = applyScan(history, scanOn(367, { checks: { http: [finding('open', 'low')] } }));

    expect(history.occurrences.map((o) => o.findingId)).toEqual(['old', 'open']);
    expect(later.occurrences.map((o) => o.findingId)).toEqual(['open']);
  });

  it(`keeps at most ${MAX_OCCURRENCES} occurrences, the oldest fixes going first`, () => {
    const many = Array.from({ length: MAX_OCCURRENCES + 5 }, (_, i) => finding(`f${i}`, 'low'));
    const history = fold(scanOn(0, { checks: { http: many.slice(0, 10) } }), scanOn(1, { checks: { http: many.slice(10) } }));

    expect(history.occurrences).toHaveLength(MAX_OCCURRENCES);
    expect(history.occurrences.filter((o) => o.fixedAt !== undefined).map((o) => o.findingId)).toEqual(['f5', 'f6', 'f7', 'f8', 'f9']);
  });
});

describe('time-to-fix: overdue issues in alerts', () => {
  const history = fold(scanOn(0, { checks: { ports: [RDP], tls: [HSTS] } }), scanOn(70, { checks: { ports: [RDP], tls: [HSTS] } }));
  const changes = overdueChanges(history);
  const input = { productName: 'Rampart', domain: DOMAIN, changes, reportUrl: 'https://rampart.example/results/a1', unsubscribeUrl: 'https://rampart.example/u?t=x' };

  it('names each overdue issue with its due date, target and days overdue in the email, worst first', () => {
    const email = alertEmail(input);

    expect(changes.map((c) => [c.findingId, c.daysOverdue])).toEqual([
      [RDP.id, 63],
      [HSTS.id, 10],
    ]);
    expect(email.subject).toBe(`Rampart alert for ${DOMAIN}: 2 issues overdue`);
    expect(email.text).toContain(
      [
        'Overdue issues (2)',
        `- [Critical] ${RDP.title} (Web Security): open since 1 June 2026, due 8 June 2026 (7-day target for critical issues), 63 days overdue.`,
        `- [Medium] ${HSTS.title} (Web Security): open since 1 June 2026, due 31 July 2026 (60-day target for medium issues), 10 days overdue.`,
      ].join('\n'),
    );
    expect(email.html).toContain(`${HSTS.title} <span style="color:#6b7280">(Web Security)</span>: open since 1 June 2026, due 31 July 2026`);
  });

  it('counts them in the SMS and titles them in the alerts list', () => {
    expect(changeSummaryParts(changes)).toEqual(['2 issues overdue']);
    expect(alertSms(input)).toBe(`Rampart: ${DOMAIN} - 2 issues overdue. https://rampart.example/results/a1`);
    expect(changeTitle(changes[0]!)).toBe(`Overdue critical issue: ${RDP.title} (open past its 7-day target)`);
  });

  it('leaves out an issue the owner muted or accepted', () => {
    expect(withoutMutedFindings(changes, new Set([RDP.id])).map((c) => c.type === 'issue_overdue' && c.findingId)).toEqual([HSTS.id]);
  });
});
