import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeExposure, exposureHits } from '../../../lambdas/scanner/checks/exposure.check.js';
import { ruleForListedFile, SENSITIVE_PATHS } from '../../../lambdas/scanner/checks/exposure/catalog.js';
import { listedFilesToConfirm, type ExposureProbe } from '../../../lambdas/scanner/checks/exposure/exposure.probe.js';
import type { Sample } from '../../../lambdas/scanner/checks/exposure/fetcher.js';
import { isSensitiveName, parseDirectoryListing, sensitiveEntries } from '../../../lambdas/scanner/checks/exposure/listing.js';
import {
  apacheServerStatus,
  composerJson,
  crossdomainWildcard,
  dotenv,
  dsStore,
  elmahLog,
  gitConfig,
  gitHead,
  gzipArchive,
  hgRequires,
  htpasswd,
  packageJson,
  phpinfo,
  phpSource,
  securityTxt,
  sqlDump,
  svnEntries,
  zipArchive,
} from '../../../lambdas/scanner/checks/exposure/signatures.js';
import { bodySimilarity, matchesBaseline } from '../../../lambdas/scanner/checks/exposure/soft-404.js';
import { siteOrigin } from '../../../lambdas/scanner/checks/exposure/site.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/exposure/${name}`, import.meta.url), 'utf8');
const text = (body: string, type = 'text/plain') => ({ body, headers: { 'content-type': [type] } });
const html = (body: string) => text(body, 'text/html; charset=UTF-8');

function sample(path: string, body: string, status = 200, headers: Record<string, string[]> = {}): Sample {
  return { path, url: `https://shop.example${path}`, status, headers, body, bytes: Buffer.byteLength(body), truncated: false, redirects: [] };
}

/**
 * A .DS_Store as the Finder writes it: the "Bud1" buddy-allocator header, then records of
 * (name length uint32 BE, name UTF-16BE, four-letter structure type, four-letter data type, value).
 */
function dsStoreBytes(names: string[]): string {
  const parts: Buffer[] = [Buffer.from([0, 0, 0, 1]), Buffer.from('Bud1'), Buffer.alloc(28, 0)];
  for (const name of names) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(name.length);
    const utf16 = Buffer.alloc(name.length * 2);
    for (let i = 0; i < name.length; i++) utf16.writeUInt16BE(name.charCodeAt(i), i * 2);
    parts.push(length, utf16, Buffer.from('Ilocblob'), Buffer.from([0, 0, 0, 16]), Buffer.alloc(16, 0xff));
  }
  return Buffer.concat(parts).toString('utf8');
}

describe('exposure signatures', () => {
  it('reads a .git/HEAD symbolic ref and a detached commit, and nothing else', () => {
    expect(gitHead(text(fixture('git-HEAD')))).toEqual({ signature: 'git-head', detail: 'HEAD points to refs/heads/main' });
    expect(gitHead(text('3f786850e387550fdab836ed7e6dc881de23001b\n'))?.detail).toBe('HEAD is a detached commit id');
    expect(gitHead(html(fixture('soft-404.html')))).toBeNull();
    expect(gitHead(text('ref: see our refund policy'))).toBeNull();
  });

  it('reads .git/config and hides the token in the remote URL while saying it is there', () => {
    const match = gitConfig(text(fixture('git-config')));

    expect(match?.detail).toBe('remote https://***@github.com/example-shop/website.git; the remote URL carries a user name and password or token');
    expect(match?.detail).not.toContain('ghp_');
  });

  it('reads an .env by its KEY=value lines: critical with secret keys, never a value in the evidence', () => {
    const match = dotenv(text(fixture('laravel.env')));

    expect(match?.severity).toBe('critical');
    expect(match?.detail).toContain('APP_KEY');
    expect(match?.detail).toContain('DB_PASSWORD');
    expect(match?.detail).not.toContain('S3cr3t');
    expect(match?.detail).not.toContain('base64:');
    expect(dotenv(text('APP_ENV=production\nAPP_DEBUG=false\n'))?.severity).toBe('high');
    expect(dotenv(html(fixture('soft-404.html')))).toBeNull();
    // Prose with one "=" is not a settings file.
    expect(dotenv(text('Welcome to our shop.\nPrices: 2 + 2 = 4\nSee you soon.\n'))).toBeNull();
  });

  it('reads a .DS_Store by its Bud1 magic and names the files it lists', () => {
    const match = dsStore(text(dsStoreBytes(['backup.sql', 'index.html', 'index.html']), 'application/octet-stream'));

    expect(match).toEqual({ signature: 'ds-store', detail: 'names files: backup.sql, index.html', severity: 'medium' });
    expect(dsStore(text(dsStoreBytes(['css', 'logo.png'])))?.severity).toBe('low');
    expect(dsStore(html(fixture('soft-404.html')))).toBeNull();
  });

  it('reads a wp-config.php backup served as text, naming its settings but not their values', () => {
    const match = phpSource(text(fixture('wp-config.php.bak')));

    expect(match?.severity).toBe('critical');
    expect(match?.detail).toMatch(/^PHP source with DB_NAME, DB_USER, DB_PASSWORD, DB_HOST/);
    expect(match?.detail).not.toContain('S3cr3t');
    expect(phpSource(html(fixture('soft-404.html')))).toBeNull();
  });

  it('reads mysqldump and MariaDB dumps with their tables, and SQL statements without a header', () => {
    expect(sqlDump(text(fixture('mysqldump.sql')))).toEqual({ signature: 'mysql-dump', detail: 'MySQL dump; tables wp_users' });
    expect(sqlDump(text(fixture('range-backup.sql')))).toEqual({ signature: 'mariadb-dump', detail: 'MariaDB dump; tables customers' });
    expect(sqlDump(text('CREATE TABLE t (id int);\nINSERT INTO t VALUES (1);\n'))?.signature).toBe('sql-statements');
    expect(sqlDump(html('<html><body><h1>How to write CREATE TABLE</h1>\nINSERT INTO is next</body></html>'))).toBeNull();
  });

  it('reads Apache mod_status captured on the range, with the version and that it lists clients and URLs', () => {
    expect(apacheServerStatus(html(fixture('apache-server-status.html')))?.detail).toBe(
      'Apache Server Status for wp.example.test; Server Version: Apache/2.4.71 (Debian) OpenSSL/3.0.19; lists client addresses and the URLs being requested',
    );
    expect(apacheServerStatus(html(fixture('soft-404.html')))).toBeNull();
  });

  it('reads a real phpinfo() page (PHP 8.2 built-in server) with its PHP version', () => {
    expect(phpinfo(html(fixture('phpinfo.html')))).toEqual({ signature: 'phpinfo', detail: 'phpinfo() of PHP 8.2.36' });
    expect(phpinfo(html('<html><title>Docs</title><p>Check your PHP Version with phpinfo()</p></html>'))).toBeNull();
  });

  it('reads the other files by their own formats', () => {
    expect(htpasswd(text(fixture('htpasswd')))?.detail).toBe('password hashes for admin, staff');
    expect(htpasswd(text('admin:hunter2 is my password\n'))).toBeNull();
    expect(composerJson(text(fixture('composer.json')))?.detail).toBe('composer.json naming 4 packages (php, laravel/framework, guzzlehttp/guzzle, phpunit/phpunit)');
    expect(packageJson(text('{"name":"shop","private":true,"scripts":{"build":"vite build"},"dependencies":{"vue":"^3.4.0"}}'))?.detail).toBe('package.json naming 1 packages (vue)');
    expect(packageJson(text('{"status":"ok"}'))).toBeNull();
    expect(crossdomainWildcard(text(fixture('crossdomain.xml'), 'text/xml'))?.detail).toBe('allow-access-from domain="*"');
    expect(crossdomainWildcard(text('<cross-domain-policy><allow-access-from domain="*.shop.example"/></cross-domain-policy>'))).toBeNull();
    expect(elmahLog(html(fixture('elmah.html')))?.signature).toBe('elmah');
    expect(securityTxt(text(fixture('security.txt')))?.detail).toBe('Contact: mailto:security@shop.example');
    expect(securityTxt(html(fixture('soft-404.html')))).toBeNull();
    expect(svnEntries(text('12\n'))?.signature).toBe('svn-entries');
    expect(svnEntries(text('10\n\ndir\n1234\nhttps://svn.example/repo/trunk\n'))?.detail).toBe('working copy format 10');
    expect(hgRequires(text('dotencode\nfncache\ngeneraldelta\nrevlogv1\nsparserevlog\nstore\n'))?.signature).toBe('hg-requires');
    expect(hgRequires(text('store\n'))).toBeNull();
    expect(zipArchive(text('PK\u0003\u0004\u0014\u0000\u0000\u0000'))?.severity).toBe('high');
    expect(gzipArchive(text(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x12]).toString('utf8')))?.signature).toBe('gzip');
  });

  it('rejects every signature on a soft-404 HTML page, whatever path it was served for', () => {
    const page = html(fixture('soft-404.html'));

    expect(SENSITIVE_PATHS.map((rule) => [rule.path, rule.signature(page)]).filter(([, match]) => match !== null)).toEqual([]);
  });
});

describe('directory listings', () => {
  it('reads the nginx autoindex of /files/ captured on the range, with backup.sql as a sensitive entry', () => {
    const listing = parseDirectoryListing(fixture('nginx-autoindex-files.html'), '/files/');

    expect(listing).toEqual({ style: 'index-of', shows: '/files/', entries: ['backup.sql'] });
    expect(sensitiveEntries(listing!)).toEqual(['backup.sql']);
  });

  it('reads an Apache "Index of /" without sort links or the parent, and flags only the backups', () => {
    const listing = parseDirectoryListing(fixture('apache-index-of-root.html'), '/');

    expect(listing?.entries).toEqual(['css/', 'images/', 'index.html.old', 'site-backup-2024-03-10.tar.gz', 'Thumbs.db']);
    expect(sensitiveEntries(listing!)).toEqual(['index.html.old', 'site-backup-2024-03-10.tar.gz']);
  });

  it('decodes entry names and accepts the folder with or without its trailing slash', () => {
    expect(parseDirectoryListing(fixture('apache-index-of-images.html'), '/images/')?.entries).toEqual(['logo.png', 'team photo.jpg']);
  });

  it('does not take a listing of another folder (a catch-all page) for the folder asked', () => {
    expect(parseDirectoryListing(fixture('apache-index-of-root.html'), '/backup/')).toBeNull();
    expect(parseDirectoryListing(fixture('soft-404.html'), '/files/')).toBeNull();
  });

  it('reads IIS and Python listings', () => {
    const iis = '<html><head><title>shop.example - /files/</title></head><body><H1>shop.example - /files/</H1><hr><pre><A HREF="/">[To Parent Directory]</A><br><br> 3/11/2024  9:12 AM     48213 <A HREF="/files/db.bak">db.bak</A><br></pre><hr></body></html>';
    const python = '<!DOCTYPE HTML><html><head><title>Directory listing for /backups/</title></head><body><h1>Directory listing for /backups/</h1><hr><ul><li><a href=".env">.env</a></li><li><a href="notes.txt">notes.txt</a></li></ul><hr></body></html>';

    expect(parseDirectoryListing(iis, '/files/')).toEqual({ style: 'iis', shows: '/files/', entries: ['db.bak'] });
    expect(parseDirectoryListing(python, '/backups/')?.entries).toEqual(['.env', 'notes.txt']);
  });

  it.each([
    ['backup.sql', true], ['shop.sql.gz', true], ['site.tar.gz', true], ['.env', true], ['.env.production', true], ['wp-config.php~', true],
    ['id_rsa', true], ['error.log', true], ['logo.png', false], ['Thumbs.db', false], ['sitemap.xml.gz', false], ['backups/', false], ['index.html', false],
  ])('%s is sensitive: %s', (name, expected) => {
    expect(isSensitiveName(name)).toBe(expected);
  });

  it('picks at most three listed files to confirm, dumps and secrets first, never one already asked for', () => {
    const listings = [
      { path: '/files/', listing: { entries: ['a.zip', 'logo.png', 'x.tar.gz', 'db.sql', '.env', 'notes.bak'] } },
      { path: '/', listing: { entries: ['backup.sql', 'dump.sql'] } },
    ];

    expect(listedFilesToConfirm(listings, ['/backup.sql'])).toEqual(['/files/db.sql', '/dump.sql', '/files/.env']);
    expect(ruleForListedFile('notes.bak')).toBeUndefined();
  });
});

describe('soft 404s', () => {
  it('takes the same page served for two random paths for one page, even when it echoes the path', () => {
    const a = { path: '/rampart-1a2b3c.txt', status: 200, body: '<html><h1>Not found</h1><p>/rampart-1a2b3c.txt does not exist. Request 4411.</p></html>' };
    const b = { path: '/.env', status: 200, body: '<html><h1>Not found</h1><p>/.env does not exist. Request 9021.</p></html>' };

    expect(bodySimilarity(a, b)).toBe(1);
    expect(matchesBaseline(b, a)).toBe(true);
  });

  it('tells a real file from the baseline by status, length or words', () => {
    const baseline = { path: '/rampart-x.txt', status: 200, body: fixture('soft-404.html') };

    expect(matchesBaseline({ path: '/.env', status: 200, body: fixture('laravel.env') }, baseline)).toBe(false);
    expect(matchesBaseline({ path: '/x', status: 404, body: fixture('soft-404.html') }, baseline)).toBe(false);
    expect(matchesBaseline({ path: '/x', status: 200, body: fixture('soft-404.html') }, null)).toBe(false);
  });

  // Pages built from a word list so their word-set (Jaccard) similarity is known exactly.
  const page = (words: string[]) => `<html><body>${words.join(' ')}</body></html>`;
  const vocabulary = (from: number, count: number) => Array.from({ length: count }, (_, i) => `word${String.fromCharCode(97 + ((from + i) % 26))}${String.fromCharCode(97 + Math.floor((from + i) / 26))}`);

  it('takes pages at 0.9 word similarity or more for the baseline, and pages below it for real files', () => {
    // html + body + 38 words: 40 words on each side.
    const shared = vocabulary(0, 37);
    const baseline = { path: '/rampart-a.txt', status: 200, body: page([...shared, ...vocabulary(100, 1)]) };
    const nearlySame = { path: '/x', status: 200, body: page([...shared, ...vocabulary(200, 1)]) }; // 39 shared of 41: 0.951
    const halfSame = { path: '/y', status: 200, body: page([...vocabulary(0, 25), ...vocabulary(300, 13)]) }; // 27 shared of 53: 0.509

    expect(bodySimilarity(nearlySame, baseline)).toBeCloseTo(39 / 41, 5);
    expect(matchesBaseline(nearlySame, baseline)).toBe(true);
    expect(bodySimilarity(halfSame, baseline)).toBeCloseTo(27 / 53, 5);
    expect(bodySimilarity(halfSame, baseline)).toBeGreaterThan(0.5);
    expect(matchesBaseline(halfSame, baseline)).toBe(false);
  });

  it('reads past what a not-found page varies on: the path (with or without its slash, encoded), nonces, numbers and case', () => {
    const page404 = (path: string, nonce: string, n: number, title = 'Not Found') =>
      `<html><h1>${title}</h1><p>The page ${path} is gone. Ref ${nonce} at ${n}.</p></html>`;
    const a = { path: '/rampart-1a2b.txt', status: 200, body: page404('/rampart-1a2b.txt', 'a'.repeat(16), 11) };
    // The path without its leading slash, a different 32-hex nonce, another number, upper case.
    const b = { path: '/.env', status: 200, body: page404('.env', '0123456789abcdef0123456789abcdef', 93217, 'NOT FOUND') };
    const c = { path: '/a b.txt', status: 200, body: page404(encodeURI('/a b.txt'), 'f'.repeat(20), 5) };

    expect(bodySimilarity(b, a)).toBe(1);
    expect(bodySimilarity(c, a)).toBe(1);
  });

  it('takes two empty bodies for one page, and an empty one for no match of a page with words', () => {
    const empty = { path: '/x', status: 200, body: '' };
    const blank = { path: '/y', status: 200, body: '  \n ' };
    const words = { path: '/z', status: 200, body: 'hello' };

    expect(bodySimilarity(empty, blank)).toBe(1);
    expect(bodySimilarity(empty, words)).toBe(0);
    expect(bodySimilarity(words, empty)).toBe(0);
    // Only punctuation: no words on either side, but not empty either: not the same page.
    expect(bodySimilarity({ path: '/p', status: 200, body: '<>' }, { path: '/q', status: 200, body: '' })).toBe(0);
  });

  it('tells pages apart by length beyond 10% (or 64 bytes), even with the same words', () => {
    const words = vocabulary(0, 60);
    const baseline = { path: '/rampart-b.txt', status: 200, body: page(words) };
    // The same words, repeated: word similarity 1, but 30% longer (126 bytes: past the 64-byte floor), and for a short page 100 bytes longer.
    const longer = { path: '/x', status: 200, body: page([...words, ...words.slice(0, 18)]) };
    const short = { path: '/rampart-c.txt', status: 200, body: 'not found here' };
    const shortPadded = { path: '/y', status: 200, body: `not found here${' '.repeat(100)}` };
    const within = { path: '/z', status: 200, body: page([...words, words[0]!]) };

    expect(bodySimilarity(longer, baseline)).toBe(1);
    expect((longer.body.length - baseline.body.length) / longer.body.length).toBeGreaterThan(0.2);
    expect((longer.body.length - baseline.body.length) / longer.body.length).toBeLessThan(0.5);
    expect(matchesBaseline(longer, baseline)).toBe(false);
    expect(matchesBaseline(shortPadded, short)).toBe(false);
    expect(matchesBaseline(within, baseline)).toBe(true);
  });
});

describe('exposure analysis', () => {
  const notFound = (path: string) => sample(path, '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>', 404);
  const probe = (samples: Sample[], extra: Partial<ExposureProbe> = {}): ExposureProbe => ({
    origin: 'https://shop.example',
    landing: sample('/', '<html><title>Shop</title></html>', 200, { 'content-type': ['text/html'] }),
    baseline: { file: notFound('/rampart-abc.txt'), directory: notFound('/rampart-abc/') },
    samples,
    failures: [],
    sent: samples.length + 3,
    incomplete: false,
    ...extra,
  });

  it('reports each kind once with its worst severity, evidence per path, and the range-like listing as high', () => {
    const output = analyzeExposure(
      probe([
        sample('/.git/HEAD', fixture('git-HEAD')),
        sample('/.git/config', fixture('git-config')),
        sample('/.env', fixture('laravel.env'), 200, { 'content-length': [String(Buffer.byteLength(fixture('laravel.env')))] }),
        sample('/server-status', fixture('apache-server-status.html')),
        sample('/phpinfo.php', fixture('phpinfo.html')),
        sample('/files/', fixture('nginx-autoindex-files.html')),
        sample('/files/backup.sql', fixture('range-backup.sql')),
        sample('/images/', fixture('apache-index-of-images.html')),
        notFound('/backup.sql'),
        notFound('/.well-known/security.txt'),
      ]),
    );

    expect(output.findings.map((f) => [f.id, f.severity])).toEqual([
      ['exposure.git', 'critical'],
      ['exposure.env', 'critical'],
      ['exposure.server-status', 'medium'],
      ['exposure.phpinfo', 'medium'],
      ['exposure.sql-dump', 'critical'],
      ['exposure.directory-listing-sensitive', 'high'],
      ['exposure.directory-listing', 'medium'],
      ['exposure.security-txt-missing', 'info'],
    ]);
    expect(output.findings.every((f) => f.check === 'exposure' && f.category === 'Web Security')).toBe(true);
    const byId = Object.fromEntries(output.findings.map((f) => [f.id, f.evidence]));
    expect(byId['exposure.git']).toBe(
      'GET /.git/HEAD → 200, 21 bytes: HEAD points to refs/heads/main; GET /.git/config → 200, 312 bytes: remote https://***@github.com/example-shop/website.git; the remote URL carries a user name and password or token',
    );
    expect(byId['exposure.sql-dump']).toBe('GET /files/backup.sql → 200, 501 bytes: MariaDB dump; tables customers');
    expect(byId['exposure.directory-listing-sensitive']).toBe('/files/: backup.sql');
    expect(byId['exposure.directory-listing']).toBe('/images/ (2 entries)');
    expect(output.data).toMatchObject({
      baseline: { status: 404, length: 85 },
      checked: 13,
      hits: [
        { path: '/.git/HEAD', status: 200, signature: 'git-head', bytes: 21 },
        { path: '/.git/config', signature: 'git-config' },
        { path: '/.env', signature: 'dotenv' },
        { path: '/server-status', signature: 'apache-server-status' },
        { path: '/phpinfo.php', signature: 'phpinfo' },
        { path: '/files/backup.sql', signature: 'mariadb-dump', bytes: 501 },
      ],
      listings: [
        { path: '/files/', entries: 1, sensitive: ['backup.sql'] },
        { path: '/images/', entries: 2, sensitive: [] },
      ],
      securityTxt: { present: false },
    });
  });

  it('reports nothing but the missing security.txt for a site that answers 200 with the same page for everything', () => {
    const page = fixture('soft-404.html');
    const everything = [...SENSITIVE_PATHS.map((rule) => rule.path), '/files/', '/backup/', '/backups/', '/uploads/', '/images/', '/.well-known/security.txt'];
    const output = analyzeExposure(
      probe(everything.map((path) => sample(path, page, 200, { 'content-type': ['text/html'] })), {
        landing: sample('/', page, 200, { 'content-type': ['text/html'] }),
        baseline: { file: sample('/rampart-abc.txt', page), directory: sample('/rampart-abc/', page) },
      }),
    );

    expect(output.findings.map((f) => f.id)).toEqual(['exposure.security-txt-missing']);
    expect(output.data).toMatchObject({ baseline: { status: 200 }, hits: [], listings: [] });
  });

  it('does not believe a body that matches a signature when it is also what the site serves for a random path', () => {
    // A catch-all that happens to answer with a KEY=value text for any URL.
    const catchAll = 'APP_ENV=production\nAPP_DEBUG=false\nAPP_URL=https://shop.example\n';

    const hits = exposureHits({ samples: [sample('/.env', catchAll)], baseline: { file: sample('/rampart-abc.txt', catchAll), directory: null } });

    expect(hits).toEqual([]);
  });

  it('finds the root listing on the landing page itself and a security.txt when published', () => {
    const output = analyzeExposure(
      probe([sample('/.well-known/security.txt', fixture('security.txt'), 200, { 'content-type': ['text/plain'] })], {
        landing: sample('/', fixture('apache-index-of-root.html')),
      }),
      new Date('2026-11-27T09:00:00Z'),
    );

    // The fixture is valid RFC 9116 (Contact, Expires seven months ahead, Canonical its own address) but unsigned: an observation.
    expect(output.findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['exposure.directory-listing-sensitive', 'high', '/: index.html.old, site-backup-2024-03-10.tar.gz'],
      ['exposure.security-txt.unsigned', 'info', 'GET https://shop.example/.well-known/security.txt: no OpenPGP cleartext signature'],
    ]);
    expect(output.data?.securityTxt).toMatchObject({ present: true, detail: 'Contact: mailto:security@shop.example', rfc9116: { signed: false, expiresInDays: 215, canonical: { matches: true } } });
  });

  it('makes no security.txt finding when that request got no answer', () => {
    const output = analyzeExposure(probe([], { failures: [{ path: '/.well-known/security.txt', error: 'ETIMEDOUT' }] }));

    expect(output.findings).toEqual([]);
    expect(output.data?.securityTxt).toEqual({ present: null });
  });
});

describe('site origin', () => {
  it('follows a redirect to www. of the same domain but not to a third party', () => {
    const toWww = { url: 'https://www.shop.example/', redirects: [{ url: 'https://shop.example/', status: 301, location: 'https://www.shop.example/' }] };
    const toParking = { url: 'https://parking.invalid/lander', redirects: [{ url: 'https://shop.example/', status: 302, location: 'https://parking.invalid/lander' }] };

    expect(siteOrigin(toWww, 'shop.example', 'shop.example', 'https://shop.example/')).toBe('https://www.shop.example');
    expect(siteOrigin(toParking, 'shop.example', 'shop.example', 'https://shop.example/')).toBe('https://shop.example');
  });
});
