import type { AgentDebugView, AgentEnrollmentView, AgentInstallEventView, AgentView } from '../../../lib/contracts';

/** Answers of the agents API as the contract shapes them, for the Local Agents tests. */
export function agentView(extra: Partial<AgentView> & Pick<AgentView, 'agent_id' | 'hostname'>): AgentView {
  return {
    agent_name: 'rampart-shop.example.com',
    ip: '192.0.2.10',
    os: 'windows',
    os_version: 'Windows 11 Pro 23H2',
    version: '1.0.0',
    osquery_version: '5.10.2',
    client_domain: 'shop.example.com',
    status: 'active',
    last_keep_alive: '2026-11-20T03:00:00.000Z',
    registered_at: '2026-11-19T03:00:00.000Z',
    last_report_at: '2026-11-20T03:00:00.000Z',
    vulnerabilities: [],
    vulnerability_count: 3,
    cis_fail_count: 2,
    cis_checks: [],
    security_score: 75,
    security_grade: 'C',
    risk_level: 'medium',
    ...extra,
  };
}

export const AGENTS: AgentView[] = [
  agentView({ agent_id: 'agt_aaaaaaaaaaaaaaaaaaaaaaaaaa', hostname: 'FRONT-DESK-01' }),
  agentView({
    agent_id: 'agt_bbbbbbbbbbbbbbbbbbbbbbbbbb',
    hostname: 'web-01',
    os: 'linux',
    os_version: 'Ubuntu 22.04.4 LTS',
    ip: '192.0.2.20',
    vulnerability_count: 0,
    cis_fail_count: 0,
    security_score: 100,
    security_grade: 'A',
    risk_level: 'low',
  }),
  agentView({ agent_id: 'agt_cccccccccccccccccccccccccc', hostname: 'mac-ceo', os: 'macos', os_version: 'macOS 14.5', status: 'disconnected', security_score: 40, security_grade: 'F' }),
  agentView({ agent_id: 'agt_dddddddddddddddddddddddddd', hostname: 'spare-laptop', security_score: null, security_grade: null, risk_level: null, last_report_at: null, vulnerability_count: 0, cis_fail_count: 0 }),
];

export const ENROLLMENT: AgentEnrollmentView = {
  secret: 'ens_0123456789abcdefghijklmnopqrstuv',
  rotatedAt: '2026-11-01T00:00:00.000Z',
  apiBase: 'http://localhost:3000',
  email: 'ada@example.test',
  domains: ['shop.example.com', 'blog.example.com'],
  installers: [
    { platform: 'windows', path: '/agents/rampart-osquery-installer.bat', fileName: 'rampart-osquery-installer.bat' },
    { platform: 'macos', path: '/agents/rampart-osquery-installer.sh', fileName: 'rampart-osquery-installer.sh' },
    { platform: 'linux', path: '/agents/rampart-osquery-installer.sh', fileName: 'rampart-osquery-installer.sh' },
  ],
  osqueryVersion: '5.10.2',
  agentVersion: '1.0.0',
  disconnectAfterSeconds: 1800,
};

export function installEvent(extra: Partial<AgentInstallEventView> & Pick<AgentInstallEventView, 'install_status' | 'received_at'>): AgentInstallEventView {
  return { hostname: 'FRONT-DESK-02', customer_domain: 'shop.example.com', os_version: 'Windows 11 Pro', install_message: '', install_step: null, timestamp: extra.received_at, ...extra };
}

export function debugView(extra: Partial<AgentDebugView> = {}): AgentDebugView {
  return { success: true, audit_count: 0, last_audit: null, recent_audits: [], recent_installs: [], ...extra };
}
