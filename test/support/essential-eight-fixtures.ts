import type { CheckResult } from '../../lambdas/domain/audit.js';

/** A ports check that found Remote Desktop open: evidence against multi-factor authentication in the Essential Eight view. */
export const rdpOpenCheck: CheckResult = {
  name: 'ports',
  status: 'ok',
  findings: [
    {
      id: 'ports.remote-access.rdp',
      check: 'ports',
      title: 'Remote Desktop (RDP) is open to the internet',
      severity: 'high',
      category: 'Network Security',
      evidence: '203.0.113.10: 3389/tcp ms-wbt-server',
      description: 'd',
      recommendation: 'r',
    },
  ],
};
