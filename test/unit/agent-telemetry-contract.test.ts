import { describe, expect, it } from 'vitest';
import { agentInstallSteps, agentTelemetrySchema } from '../../lambdas/domain/agents.contract.js';

const valid = {
  customer_email: 'it@shop.example.com',
  customer_domain: 'shop.example.com',
  hostname: 'FRONT-DESK-02',
  os_version: 'Microsoft Windows 11 Pro 10.0.22631',
  install_status: 'failed',
  install_message: 'Administrator privileges required. Please run PowerShell as Administrator and try again.',
  install_details: 'step=admin-check',
  timestamp: '2026-11-20T03:00:00Z',
  installer_version: '1.0.0',
};

describe('POST /api/agents/telemetry contract: install_step', () => {
  it('takes each of the six steps, in the spec’s order, and leaves it out when the installer does not send one', () => {
    expect(agentInstallSteps).toEqual(['admin-check', 'download', 'install', 'configure', 'validate', 'register']);
    for (const step of agentInstallSteps) expect(agentTelemetrySchema.parse({ ...valid, install_step: step }).install_step).toBe(step);
    const stepless = agentTelemetrySchema.parse(valid);
    expect(stepless.install_step).toBeUndefined();
    expect('install_step' in stepless).toBe(false);
  });

  it('refuses anything else: unknown ids, another case, padding, null, numbers; unknown fields stay refused', () => {
    for (const bad of ['reboot', 'Admin-Check', ' download', '', null, 1, ['download']]) {
      const result = agentTelemetrySchema.safeParse({ ...valid, install_step: bad });
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['install_step']);
    }
    expect(agentTelemetrySchema.safeParse({ ...valid, install_step: 'reboot' }).error?.issues[0]?.message).toBe(
      'install_step must be one of admin-check, download, install, configure, validate, register',
    );
    expect(agentTelemetrySchema.safeParse({ ...valid, step: 'download' }).success).toBe(false);
  });
});
