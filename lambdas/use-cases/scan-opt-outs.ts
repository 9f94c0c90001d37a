import type { Deps } from '../composition.js';
import { ForbiddenError } from '../domain/errors.js';
import { scannerPageUrl } from '../domain/product.js';
import { optOutMessages, registrableDomainOf } from '../domain/scanner-opt-out.js';

/**
 * DECISIONS "Scanner identity": the one refusal of a scan of an opted-out domain, shared by every
 * place a scan starts (the landing form, Quick Scan and `/api/v1`, an unlock, a paid audit's checkout
 * and its re-scan, the monitoring scheduler) and by the worker before it runs one. Its own module, so
 * that those use cases import it without importing the opt-out routes' code (or each other).
 */

/** 403 `scan_opted_out`: the domain's owner asked not to be scanned. */
export class ScanOptedOutError extends ForbiddenError {
  constructor(message: string) {
    super('scan_opted_out', message);
  }
}

type OptOutReadDeps = Pick<Deps, 'scannerOptOuts' | 'config'>;

/** The refusal when the host's registrable domain is opted out; undefined otherwise (an address has no owner to ask). */
export async function optOutRefusal(deps: OptOutReadDeps, host: string): Promise<ScanOptedOutError | undefined> {
  const domain = registrableDomainOf(host);
  if (!domain) return undefined;
  const optOut = await deps.scannerOptOuts.get(domain);
  if (!optOut) return undefined;
  return new ScanOptedOutError(optOutMessages.refused(domain, deps.config.PRODUCT_NAME, optOut.optedOutAt, scannerPageUrl(deps.config.SITE_URL)));
}

/** Throws ScanOptedOutError when the host's registrable domain is opted out. */
export async function refuseOptedOutScan(deps: OptOutReadDeps, host: string): Promise<void> {
  const refusal = await optOutRefusal(deps, host);
  if (refusal) throw refusal;
}
