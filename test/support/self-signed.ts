import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway self-signed certificate from the openssl CLI, for loopback TLS servers in tests. */
export function selfSignedCertificate(commonName = 'localhost', days = 2): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', String(days),
      '-subj', `/CN=${commonName}`, '-addext', `subjectAltName=DNS:${commonName}`,
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
