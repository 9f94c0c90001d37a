import type { CheckDefinition } from '../check.js';
import { dnsCheck } from './dns.check.js';
import { portsCheck } from './ports.check.js';

/** Every check a scan runs, in report order. */
export const defaultChecks: readonly CheckDefinition[] = [dnsCheck, portsCheck];
