import { describe, expect, it } from 'vitest';
import { historyEntry } from '../history/audit-fixtures';
import { summariseScans } from './scan-summary';

describe('summariseScans', () => {
  it('counts every scan, the completed ones, their rounded average score and all critical issues', () => {
    // Prepare
    const audits = [
      historyEntry({ id: 'a', riskScore: 90, findings: { totalIssues: 1, criticalIssues: 0, openPorts: 1, subdomains: 0 } }),
      historyEntry({ id: 'b', riskScore: 55, findings: { totalIssues: 4, criticalIssues: 2, openPorts: 1, subdomains: 0 } }),
      historyEntry({ id: 'c', riskScore: 70, findings: { totalIssues: 3, criticalIssues: 1, openPorts: 1, subdomains: 0 } }),
      historyEntry({ id: 'd', status: 'queued', riskScore: null, riskLevel: null }),
    ];

    // Act
    const summary = summariseScans(audits);

    // Assess
    expect(summary).toEqual({ total: 4, completed: 3, averageScore: 72, criticalIssues: 3 });
  });

  it('has no average before a scan completes', () => {
    expect(summariseScans([historyEntry({ id: 'q', status: 'in_progress', riskScore: null })])).toEqual({
      total: 1,
      completed: 0,
      averageScore: null,
      criticalIssues: 0,
    });
  });
});
