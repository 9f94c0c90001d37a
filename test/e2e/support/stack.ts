import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHibpServer } from '../../support/hibp-server.js';
import { startZoneServer, type ZoneServer } from '../../support/zone-server.js';
import { proveAddress } from './accounts.js';
import { launchBrowser, type TestBrowser } from './browser.js';
import { startLocalApp, type LocalApp } from './local-app.js';

/** The site under test: shop.example.test resolves to 127.0.0.1 through the test's own DNS server. */
export const TARGET_HOST = 'shop.example.test';

export interface E2eStack {
  app: LocalApp;
  /** The SES local mailbox the start banner names (`GET {mailboxUrl}/store` lists the emails sent). */
  mailboxUrl: string;
  browser: TestBrowser;
  /** The scanner's DNS: serves TARGET_HOST; tests publish more records (a verification TXT) with `add`. */
  zone: ZoneServer;
  stop(): Promise<void>;
}

/** A password the loopback Pwned Passwords stand-in reports as breached (signup must refuse it). */
export const BREACHED_PASSWORD = 'Password123!';

const MAILBOX_LINE = /Mailbox \(emails sent, SES local\): (http\S+)/;

/** A value from the start banner, which `npm start` prints right after its ready line. */
async function bannerValue(app: LocalApp, line: RegExp, timeoutMs = 5_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = line.exec(app.output())?.[1];
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`npm start printed no line matching ${line}\n--- output ---\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `npm start` on a random port with fresh data, a DNS server it scans through, and Chromium. */
export async function startE2eStack(): Promise<E2eStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'rampart-e2e-data-'));
  const zone = await startZoneServer({ records: [{ name: TARGET_HOST, type: 'A', ttl: 60, data: '127.0.0.1' }] });
  // Signup's breached-password check goes to Pwned Passwords: here a stand-in on loopback.
  const hibp = await startHibpServer({ apiKey: 'e2e-unused', passwords: { [BREACHED_PASSWORD]: 52_000 } });
  const cleanups: (() => Promise<void>)[] = [() => rm(dataDir, { recursive: true, force: true }), () => zone.close(), () => hibp.close()];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const app = await startLocalApp({
      PORT: '0',
      DATA_DIR: dataDir,
      SCAN_ALLOW_PRIVATE_TARGETS: '1',
      SCAN_RESOLVERS: `127.0.0.1:${zone.port}`,
      PWNED_PASSWORDS_URL: hibp.passwordsBaseUrl,
      SCAN_EXCLUDE_PORTS: '2024',
    });
    cleanups.push(() => app.stop());
    const mailboxUrl = await bannerValue(app, MAILBOX_LINE);
    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    return { app, mailboxUrl, browser, zone, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Posts a free-scan lead for TARGET_HOST straight to the API, as the lead form will. With `mailboxUrl`,
 * the owner's address is proven by its code first, so the scan is active (a full report).
 */
export async function postLead(appUrl: string, mailboxUrl?: string): Promise<{ status: number; body: { auditId?: string } }> {
  if (mailboxUrl) await proveAddress(appUrl, mailboxUrl, 'owner@example.test', `http://${TARGET_HOST}`);
  const response = await fetch(`${appUrl}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Olivia',
      lastName: 'Owner',
      businessName: 'Example Shop',
      webUrl: `http://${TARGET_HOST}`,
      email: 'owner@example.test',
      mobileNumber: '+61412345678',
      agreedToTerms: true,
      agreedToDataCollection: true,
    }),
  });
  return { status: response.status, body: (await response.json()) as { auditId?: string } };
}
