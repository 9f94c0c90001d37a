import type { CheckDefinition } from '../check.js';
import { dnsCheck } from './dns.check.js';
import { emailCheck } from './email.check.js';
import { httpCheck } from './http.check.js';
import { portsCheck } from './ports.check.js';
import { subdomainsCheck } from './subdomains.check.js';
import { tlsCheck } from './tls.check.js';

/** Every check a scan runs, in report order. */
export const defaultChecks: readonly CheckDefinition[] = [dnsCheck, emailCheck, subdomainsCheck, tlsCheck, httpCheck, portsCheck];
