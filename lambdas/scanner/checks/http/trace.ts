/**
 * TRACE: a server that answers TRACE echoes the request back, headers included (Cross-Site
 * Tracing). The probe sends one TRACE request; it is enabled when the answer is 200 and its body
 * repeats the request line.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { CATEGORY } from './retrieved.js';

export interface TraceProbe {
  url: string;
  status: number;
  body: string;
}

export interface TraceOutcome {
  url: string;
  status: number;
  enabled: boolean;
  /** The echoed request line, when there is one. */
  echoed: string | null;
}

/** Judges the answer to the probe's TRACE request. */
export function traceTest(probe: TraceProbe): TraceOutcome {
  const path = new URL(probe.url).pathname;
  const line = new RegExp(`^TRACE ${escapeRegExp(path)}\\S* HTTP/1\\.[01]\\r?$`, 'm').exec(probe.body)?.[0]?.trim() ?? null;
  return { url: probe.url, status: probe.status, enabled: probe.status === 200 && line !== null, echoed: line };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const finding = findingsFor('http');

/** TRACE answered with an echo (medium). */
export function traceFindings(outcome: TraceOutcome): Finding[] {
  if (!outcome.enabled) return [];
  return [
    finding({
      id: 'http.trace-enabled',
      title: 'HTTP TRACE is enabled',
      severity: 'medium',
      category: CATEGORY,
      evidence: `TRACE ${new URL(outcome.url).pathname} answered ${outcome.status} and echoed "${outcome.echoed}" with the request headers`,
      description:
        'The server answers TRACE requests by sending the whole request back, headers included. Combined with another flaw this exposes cookies marked HttpOnly and Authorization headers (Cross-Site Tracing), and it reveals headers that proxies and load balancers add, such as internal addresses. Browsers no longer let pages send TRACE, but plugins, proxies and other clients can.',
      recommendation:
        'Turn TRACE off: in Apache `TraceEnable Off` (in the main server configuration), in IIS deny the TRACE verb with request filtering; nginx refuses TRACE unless a module enables it. No website needs TRACE. Rated medium: nothing else should answer it, and it undoes the protection of HttpOnly cookies.',
    }),
  ];
}
