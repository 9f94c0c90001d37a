import type { CheckDefinition } from '../check.js';
import { type BreachLookup, createBreachesCheck } from './breaches.check.js';
import { dnsCheck } from './dns.check.js';
import { emailCheck } from './email.check.js';
import { exposureCheck } from './exposure.check.js';
import { httpCheck } from './http.check.js';
import { portsCheck } from './ports.check.js';
import { softwareCheck } from './software.check.js';
import { subdomainsCheck } from './subdomains.check.js';
import { tlsCheck } from './tls.check.js';
import { wordpressCheck } from './wordpress.check.js';

/** Every check a scan runs, in report order, with the breach lookup the deployment has (if any). */
export function checksWith(options: { breaches?: BreachLookup }): readonly CheckDefinition[] {
  return [dnsCheck, emailCheck, subdomainsCheck, tlsCheck, httpCheck, portsCheck, wordpressCheck, exposureCheck, softwareCheck, createBreachesCheck(options.breaches)];
}

export const defaultChecks: readonly CheckDefinition[] = checksWith({});
