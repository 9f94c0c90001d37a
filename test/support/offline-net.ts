import type { ScanNet } from '../../lambdas/scanner/net/net.js';

const offline = () => Promise.reject(Object.assign(new Error('offline (test)'), { code: 'EOFFLINE' }));

/** A scanner network where every client fails at once: for engine tests that must not touch the network. */
export const offlineNet: ScanNet = {
  dns: { query: offline, axfr: offline },
  tcp: { probe: offline },
  tls: { handshake: offline },
  http: { request: offline },
  smtp: { starttls: offline },
};
