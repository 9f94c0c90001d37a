/**
 * Where the scan range's servers listen: each on its own loopback address (Linux routes all of
 * 127.0.0.0/8 to lo), on its standard ports. Pure data, so tests and the bench import it without
 * starting anything. Port 2024 answers on every address of this machine (0.0.0.0:2024) and is not
 * the range's: every scan of the range excludes it.
 */
export const rangeLayout = {
  zone: 'example.test',
  /** The range's DNS server: point every resolver at it (never the system's). */
  resolver: { host: '127.0.0.6', port: 53 },
  /** Ports no scan of the range may touch. */
  excludePorts: [2024],
  hosts: {
    nginx: {
      address: '127.0.0.2',
      names: ['example.test', 'www.example.test', 'dev.example.test', 'mta-sts.example.test'],
      ports: { http: 80, https: 443 },
    },
    apache: {
      address: '127.0.0.3',
      names: ['wp.example.test', 'staging.example.test', 'legacy.example.test'],
      ports: { http: 80, https: 443, mysql: 3306 },
    },
    mail: {
      address: '127.0.0.4',
      names: ['mail.example.test'],
      ports: { smtp: 25, submission: 587 },
    },
    ssh: {
      address: '127.0.0.5',
      names: ['vpn.example.test'],
      ports: { ssh: 22 },
    },
    dns: {
      address: '127.0.0.6',
      names: ['ns1.example.test'],
      ports: { dns: 53 },
    },
  },
  /**
   * A small-business server behind a firewall that drops, not refuses: its own network namespace
   * (not loopback) whose nftables input chain has policy drop for TCP except `ports`, and drops
   * `lossPercent` of the packets reaching it at random. nginx (80, 443) and OpenSSH (22) listen
   * inside. Reached over a veth pair; `hostSide` is this machine's end of it and is never a target
   * (its address reaches the machine's own services).
   */
  firewalled: {
    netns: 'rampart-fw',
    address: '10.203.19.2',
    prefixLength: 24,
    link: 'rampart-fw1',
    hostSide: { address: '10.203.19.1', link: 'rampart-fw0' },
    ports: { ssh: 22, http: 80, https: 443 },
    lossPercent: 2,
    /** Where the firewall says nothing: a port no listener has and the rules drop. */
    droppedPort: 8080,
  },
} as const;

export type RangeLayout = typeof rangeLayout;
export type RangeHostName = keyof RangeLayout['hosts'];
export type RangeHost = RangeLayout['hosts'][RangeHostName];

/** Every TCP port the range opens on loopback, per address (DNS also answers on UDP 53); the firewalled host's are in `rangeLayout.firewalled`. */
export function rangeTcpPorts(): { host: RangeHostName; address: string; port: number; service: string }[] {
  return (Object.entries(rangeLayout.hosts) as [RangeHostName, RangeHost][]).flatMap(([host, { address, ports }]) =>
    Object.entries(ports).map(([service, port]) => ({ host, address, port, service })),
  );
}

/** The firewalled host's open ports, ascending: what a sweep of it must find, no more and no fewer. */
export function firewalledOpenPorts(): number[] {
  return Object.values(rangeLayout.firewalled.ports).sort((a, b) => a - b);
}

/**
 * The TLS endpoints (implicit TLS on 443, STARTTLS on 25) with what is planted on each: the
 * protocol versions a client allowing every cipher can negotiate, and the certificate's faults.
 */
export const rangeTlsEndpoints = [
  {
    host: 'nginx', address: rangeLayout.hosts.nginx.address, port: 443, servername: 'www.example.test', starttls: undefined,
    protocols: ['TLSv1.2'], certFaults: ['self-signed'],
  },
  {
    host: 'apache', address: rangeLayout.hosts.apache.address, port: 443, servername: 'wp.example.test', starttls: undefined,
    protocols: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'], certFaults: ['expired', 'self-signed', 'name-mismatch', 'sha1-signature', 'weak-key'],
  },
  {
    // Postfix's defaults (no smtpd_tls_protocols) still take TLS 1.0 and 1.1 from a client that asks.
    host: 'mail', address: rangeLayout.hosts.mail.address, port: 25, servername: 'mail.example.test', starttls: 'smtp',
    protocols: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'], certFaults: ['self-signed'],
  },
] as const;

/**
 * What the range's servers are known to show (Debian 12's packages, as planted). Range tests and
 * scanner assertions compare against these, so a package upgrade shows up as one edit here.
 */
export const rangeFacts = {
  nginx: { server: 'nginx/1.22.1', tlsProtocols: ['TLSv1.2'] },
  apache: {
    serverPattern: /^Apache\/2\.4\.\d+ \(Debian\)/,
    tlsProtocols: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'],
    certificate: { commonName: 'old-shop.invalid', keyBits: 1024, signature: 'sha1WithRSAEncryption', notBefore: '2019-01-01', notAfter: '2021-01-01' },
  },
  wordpress: { version: '6.1.9', users: ['admin', 'editor'] },
  php: { poweredByPattern: /^PHP\/8\.2\.\d+/ },
  ssh: { bannerPrefix: 'SSH-2.0-OpenSSH_9.2p1' },
  dns: {
    spf: 'v=spf1 mx ~all',
    dmarc: 'v=DMARC1; p=none',
    /** Names an AXFR of the zone leaks (relative to the zone). */
    names: ['ns1', 'www', 'dev', 'wp', 'staging', 'legacy', 'mail', 'vpn', 'mta-sts', '_mta-sts', 'default._bimi', '_25._tcp.mail', 'old-shop'],
    /** Records in an AXFR answer, the SOA counted twice (first and last). */
    axfrRecords: 20,
  },
  mail: { bannerPattern: /^220 mail\.example\.test ESMTP Postfix 3\.\d+\.\d+/ },
} as const;

/**
 * The DNSSEC zones (dnssec-zones.ts), served by the range's bind9 beside example.test. Their parent
 * `test.` is signed too and is the range's trust anchor, as the root is on the internet: every scan
 * of the range is given the DS of its key (written to `named/trust-anchor.ds` at each `up`), and
 * its delegations carry each zone's DS. Keys are made at each `up`, so signatures are always fresh
 * except where a stale one is the plant.
 */
export const rangeDnssec = {
  parent: 'test',
  trustAnchorFile: 'named/trust-anchor.ds',
  zones: [
    /** Done right: a key-signing and a zone-signing key, NSEC3 without salt or extra iterations (RFC 9276). */
    { zone: 'signed.test', algorithm: 'ECDSAP256SHA256', algorithmNumber: 13, bits: undefined, split: true, denial: 'nsec3', plant: 'none' },
    /** The signature over the apex A record has one base64 character changed after signing. */
    { zone: 'broken.test', algorithm: 'ECDSAP256SHA256', algorithmNumber: 13, bits: undefined, split: false, denial: 'nsec', plant: 'tampered-a-signature' },
    /** RSA/SHA-1 (deprecated), every signature valid only in January 2020. */
    { zone: 'expired.test', algorithm: 'RSASHA1', algorithmNumber: 5, bits: 1024, split: false, denial: 'nsec', plant: 'expired-2020' },
  ],
  /** The expired zone's signature window (dnssec-signzone -s / -e). */
  expiredWindow: { inception: '20200101000000', expiration: '20200201000000' },
} as const;

/**
 * Mail transport security planted for issue 20 (pki.ts makes the keys at each `up`):
 * - MTA-STS on example.test: `_mta-sts` TXT, and the policy served by nginx at
 *   `https://mta-sts.example.test/.well-known/mta-sts.txt` with a certificate from the range's CA
 *   (which every range scan trusts), in enforce mode, its `mx` naming another provider's host: the
 *   real MX mail.example.test is not covered.
 * - DANE: in the signed zone signed.test, MX 10 mail.signed.test with a TLSA `3 1 1` of the key
 *   postfix presents (match), MX 20 mail2.signed.test with a TLSA of a retired key (mismatch), both
 *   on postfix (127.0.0.4); in the unsigned example.test, a matching TLSA at _25._tcp.mail (which
 *   senders ignore: no DNSSEC).
 * - BIMI on example.test: a record whose logo location is http:, not https:.
 */
export const rangeMailPlants = {
  mtaSts: {
    host: 'mta-sts.example.test',
    record: 'v=STSv1; id=20261127T000000',
    policy: { version: 'STSv1', mode: 'enforce', mx: ['mx.other-provider.test'], maxAge: 604800 },
  },
  dane: {
    signedZone: 'signed.test',
    signedMx: [
      { host: 'mail.signed.test', preference: 10, tlsa: 'current' },
      { host: 'mail2.signed.test', preference: 20, tlsa: 'retired' },
    ],
    unsignedMx: { host: 'mail.example.test', tlsa: 'current' },
  },
  bimi: {
    name: 'default._bimi.example.test',
    record: 'v=BIMI1; l=http://example.test/bimi/logo.svg; a=https://example.test/bimi/vmc.pem',
  },
} as const;

/**
 * Web and DNS facts planted for issue 20:
 * - nginx (www, apex, dev) serves `/.well-known/security.txt` with a Contact and an Expires in the past;
 * - WordPress has the plugin Duplicator 1.3.26 (CVE-2020-11738, exploited, CISA KEV): its
 *   readme.txt Stable tag, and its stylesheet enqueued with `?ver=1.3.26` on every page;
 * - `old-shop.example.test` is a CNAME to a Microsoft Azure App Service name that does not exist:
 *   bind9 serves a zone `azurewebsites.net` with only SOA and NS, standing in for Azure's DNS, so the
 *   target is NXDOMAIN (the sign of a claimable name for a service rated vulnerable).
 */
export const rangeWebPlants = {
  securityTxt: { path: '/.well-known/security.txt', contact: 'mailto:security@example.test', expires: '2024-01-01T00:00:00Z' },
  wordpressPlugin: {
    slug: 'duplicator',
    name: 'Duplicator',
    version: '1.3.26',
    asset: 'assets/css/style.css',
    kevCve: 'CVE-2020-11738',
  },
  takeover: {
    name: 'old-shop.example.test',
    target: 'rampart-old-shop.azurewebsites.net',
    serviceZone: 'azurewebsites.net',
    service: 'Microsoft Azure',
  },
} as const;
