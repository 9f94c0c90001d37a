/**
 * The chain of trust, walked down from a trust anchor to the domain (RFC 4035 §5): each zone's
 * DNSKEY set must be signed by a key its parent's DS names, each DS set by the parent's keys;
 * then the domain's A/AAAA/MX sets by its own keys, and a name that does not exist by an
 * NSEC/NSEC3 proof. Pure over the answers the probe gathered, at a given time; every link is a
 * step in the result, so the report can say which one broke.
 */
import type dnsPacket from 'dns-packet';
import type { QueryOutcome } from './lookup.js';
import { proveNxdomainNsec, proveNxdomainNsec3, type DenialProof } from './dnssec-denial.js';
import {
  algorithmName,
  canonicalName,
  DS_DIGEST_NAMES,
  type DnskeyRecord,
  type DsRecord,
  dsMatchesKey,
  isAtOrBelow,
  keyTag,
  type SignatureCheck,
  signaturesFor,
  supportsAlgorithm,
  supportsDigest,
  validateRrset,
} from './dnssec-validate.js';
import { anchorsFor, type TrustAnchor } from './trust-anchors.js';

/** What the probe asked, all with DO and CD set (so a validating resolver hands over bogus data too). */
export interface DnssecMaterial {
  domain: string;
  anchors: readonly TrustAnchor[];
  /** DNSKEY answers by name: the anchor's zone, every name between it and the domain, the domain. */
  dnskey: Readonly<Record<string, QueryOutcome>>;
  /** DS answers by name, for every name below the anchor's zone down to the domain. */
  ds: Readonly<Record<string, QueryOutcome>>;
  /** The records whose signatures are checked: A/AAAA of the host and the domain, MX of the domain (the email check: an MX's TLSA). */
  data: readonly { name: string; type: 'A' | 'AAAA' | 'MX' | 'TLSA'; outcome: QueryOutcome }[];
  /** A name that does not exist under the domain, asked for its A record. */
  denial?: { name: string; outcome: QueryOutcome };
}

export type StepResult = 'valid' | 'bogus' | 'expired' | 'not-yet-valid' | 'missing' | 'unsupported-algorithm' | 'insecure' | 'indeterminate' | 'skipped';

export interface ValidationStep {
  step: 'dnskey' | 'ds' | 'rrset' | 'denial';
  /** Owner name and type of what this step checked. */
  name: string;
  type: string;
  /** The zone whose keys (or, for a DNSKEY step, whose parent's DS) vouch for it. */
  zone: string;
  result: StepResult;
  detail: string;
  signatures?: SignatureCheck[];
  /** DNSKEY steps: each DS (or trust anchor) and the key it names, if any matches. */
  ds?: { keyTag: number; algorithm: number; digestType: number; matches: boolean }[];
  /** DNSKEY steps: the keys, with tag, flags and algorithm. */
  keys?: { keyTag: number; flags: number; algorithm: number }[];
  denial?: DenialProof;
}

export type ValidationResult = 'secure' | 'bogus' | 'insecure' | 'indeterminate';

export interface DnssecValidation {
  result: ValidationResult;
  /** The first step that decided the result, in words. */
  reason: string;
  /** The trust anchor's zone the walk started from ('.' for the root); undefined when none covers the domain. */
  anchor: string | undefined;
  /** Whether the links above the domain's DS were verified (false: the DS was taken as the parent serves it). */
  chainFromAnchor: boolean;
  checkedAt: string;
  /** Algorithms of the domain's DNSKEYs and signatures. */
  algorithms: number[];
  steps: ValidationStep[];
}

const FAILURES: readonly StepResult[] = ['bogus', 'expired', 'not-yet-valid', 'missing'];
const display = (name: string) => canonicalName(name) || '.';

function recordsAt<T extends dnsPacket.Answer['type']>(outcome: QueryOutcome | undefined, name: string, type: T): Extract<dnsPacket.Answer, { type: T }>[] {
  if (!outcome?.ok) return [];
  const owner = canonicalName(name);
  return outcome.answers.filter((r) => r.type === type && canonicalName(r.name) === owner) as Extract<dnsPacket.Answer, { type: T }>[];
}

/** The names from just below `top` down to `bottom`, top first (`top` excluded). */
function namesBetween(top: string, bottom: string): string[] {
  const labels = canonicalName(bottom).split('.').filter(Boolean);
  const topLabels = canonicalName(top).split('.').filter(Boolean).length;
  const names: string[] = [];
  for (let count = topLabels + 1; count <= labels.length; count++) names.push(labels.slice(labels.length - count).join('.'));
  return names;
}

/** Every name the probe must ask DNSKEY (and, below the anchor, DS) for. */
export function chainNames(domain: string, anchors: readonly TrustAnchor[]): { dnskey: string[]; ds: string[] } {
  const anchor = anchorsFor(domain, anchors)[0];
  const domainName = canonicalName(domain);
  if (!anchor) return { dnskey: [domainName], ds: [domainName] };
  const below = namesBetween(anchor.owner, domainName);
  return { dnskey: [anchor.owner, ...below], ds: below };
}

interface KeysOutcome {
  step: ValidationStep;
  keys: DnskeyRecord[];
}

/** A zone's DNSKEY set: a key the DS set names must sign it. */
function checkKeys(zone: string, outcome: QueryOutcome | undefined, dsSet: readonly DsRecord['data'][], vouchedBy: string, nowSeconds: number): KeysOutcome {
  const base = { step: 'dnskey' as const, name: display(zone), type: 'DNSKEY', zone: vouchedBy };
  if (!outcome?.ok) return { keys: [], step: { ...base, result: 'indeterminate', detail: `The DNSKEY query for ${display(zone)} failed: ${outcome ? outcome.error : 'not asked'}` } };
  const keys = recordsAt(outcome, zone, 'DNSKEY');
  const keyList = keys.map((k) => ({ keyTag: keyTag(k.data), flags: k.data.flags, algorithm: k.data.algorithm }));
  const ds = dsSet.map((d) => ({ keyTag: d.keyTag, algorithm: d.algorithm, digestType: d.digestType, matches: keys.some((k) => dsMatchesKey(d, zone, k.data)) }));
  const usable = dsSet.filter((d) => supportsAlgorithm(d.algorithm) && supportsDigest(d.digestType));
  if (usable.length === 0) {
    const what = dsSet.map((d) => `${algorithmName(d.algorithm)}/${DS_DIGEST_NAMES[d.digestType] ?? d.digestType}`).join(', ');
    return { keys, step: { ...base, result: 'unsupported-algorithm', detail: `The DS records of ${display(zone)} use only ${what}, which validators do not check: the zone counts as unsigned`, ds, keys: keyList } };
  }
  if (keys.length === 0) {
    return { keys, step: { ...base, result: 'missing', detail: `${vouchedBy} vouches for ${display(zone)} with a DS record, but ${display(zone)} serves no DNSKEY (${outcome.rcode})`, ds } };
  }
  const entry = keys.filter((k) => usable.some((d) => dsMatchesKey(d, zone, k.data)));
  if (entry.length === 0) {
    const named = usable.map((d) => `${d.keyTag}/${algorithmName(d.algorithm)}/${DS_DIGEST_NAMES[d.digestType]}`).join(', ');
    const served = keyList.map((k) => `${k.keyTag}/${algorithmName(k.algorithm)}`).join(', ');
    return { keys, step: { ...base, result: 'bogus', detail: `No DNSKEY of ${display(zone)} matches the DS at ${vouchedBy} (DS ${named}; keys ${served})`, ds, keys: keyList } };
  }
  const checked = validateRrset(keys, signaturesFor(outcome.answers, zone, 'DNSKEY'), entry, zone, nowSeconds);
  const result = checked.result;
  const detail =
    result === 'valid'
      ? `DNSKEY set of ${display(zone)} signed by key ${checked.signatures.find((s) => s.result === 'valid')!.keyTag}, which the DS at ${vouchedBy} names`
      : describeFailure(`DNSKEY ${display(zone)}`, result, checked.signatures);
  return { keys: result === 'valid' || result === 'expired' || result === 'not-yet-valid' ? keys : [], step: { ...base, result, detail, signatures: checked.signatures, ds, keys: keyList } };
}

function describeFailure(what: string, result: StepResult, signatures: readonly SignatureCheck[]): string {
  const sig = (s: SignatureCheck) => `key ${s.keyTag} (${algorithmName(s.algorithm)})`;
  switch (result) {
    case 'missing':
      return `${what} has no signature`;
    case 'expired': {
      const expired = signatures.filter((s) => s.result === 'expired');
      return `${what}: the signature by ${expired.map(sig).join(', ')} expired on ${expired.map((s) => s.expiration.slice(0, 10)).join(', ')}`;
    }
    case 'not-yet-valid': {
      const early = signatures.filter((s) => s.result === 'not-yet-valid');
      return `${what}: the signature by ${early.map(sig).join(', ')} is valid only from ${early.map((s) => s.inception.slice(0, 10)).join(', ')}`;
    }
    case 'unsupported-algorithm':
      return `${what} is signed only with ${[...new Set(signatures.map((s) => algorithmName(s.algorithm)))].join(', ')}, which validators do not check`;
    default: {
      const bad = signatures.filter((s) => s.result === 'bad-signature');
      const unknown = signatures.filter((s) => s.result === 'no-key');
      const parts = [
        bad.length > 0 ? `the signature by ${bad.map(sig).join(', ')} does not verify` : '',
        unknown.length > 0 ? `no key of the zone made the signature by key ${unknown.map((s) => s.keyTag).join(', ')}` : '',
      ].filter(Boolean);
      return `${what}: ${parts.join('; ')}`;
    }
  }
}

/**
 * Validates the material at `now`. The walk starts at the anchor that covers the domain; when a
 * link above the domain cannot be checked (a query failed, the resolver has no data for that
 * zone), the domain's own DS is taken as its parent serves it and the walk goes on from there,
 * so a zone's own faults are found even when the chain above cannot be followed.
 */
export function validateDnssec(material: DnssecMaterial, now: Date): DnssecValidation {
  try {
    return walk(material, now);
  } catch (error) {
    // Malformed records from a broken server must not cost the rest of the dns check.
    return { result: 'indeterminate', reason: `The DNSSEC records could not be read: ${(error as Error).message}`, anchor: undefined, chainFromAnchor: false, checkedAt: now.toISOString(), algorithms: [], steps: [] };
  }
}

function walk(material: DnssecMaterial, now: Date): DnssecValidation {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const domain = canonicalName(material.domain);
  const steps: ValidationStep[] = [];
  const anchors = anchorsFor(domain, material.anchors);
  const anchor = anchors[0]?.owner;
  let zone: string | undefined = anchor;
  let dsSet: DsRecord['data'][] = anchors.map(({ keyTag: tag, algorithm, digestType, digest }) => ({ keyTag: tag, algorithm, digestType, digest }));
  let vouchedBy = 'the trust anchor';
  let zoneKeys: DnskeyRecord[] = [];
  let domainKeys: DnskeyRecord[] = [];
  let chainFromAnchor = anchor !== undefined;

  const fromDomainDs = () => {
    chainFromAnchor = false;
    zone = domain;
    dsSet = recordsAt(material.ds[domain], domain, 'DS').map((r) => r.data);
    vouchedBy = `the parent of ${display(domain)} (not verified above it)`;
  };
  if (zone === undefined) fromDomainDs();

  // Down the chain, one zone per turn, until the domain's keys are trusted or a link breaks.
  for (let guard = 0; guard < 64; guard++) {
    const current: string = zone!;
    if (current === domain && dsSet.length === 0) {
      const asked = material.ds[domain];
      steps.push(
        asked?.ok
          ? { step: 'ds', name: display(domain), type: 'DS', zone: 'parent', result: 'insecure', detail: `The parent of ${display(domain)} publishes no DS record: the zone is not signed as far as resolvers can tell` }
          : { step: 'ds', name: display(domain), type: 'DS', zone: 'parent', result: 'indeterminate', detail: `The DS query for ${display(domain)} failed: ${asked ? asked.error : 'not asked'}` },
      );
      break;
    }
    const { step, keys } = checkKeys(current, material.dnskey[current], dsSet, vouchedBy, nowSeconds);
    // A zone above the domain whose keys cannot be had or trusted (a resolver without the root's
    // keys, a test server) is not the domain's fault: its own DS is taken as served instead.
    if (step.result !== 'valid' && step.result !== 'unsupported-algorithm' && current !== domain && chainFromAnchor) {
      steps.push({ ...step, result: 'indeterminate', detail: `Above the domain: ${step.detail}` });
      fromDomainDs();
      continue;
    }
    steps.push(step);
    if (current === domain) {
      // Keys whose self-signature is only out of date are still the zone's: checking the data with
      // them shows how far the lapse reaches (a validator would stop here).
      if (step.result === 'valid' || step.result === 'expired' || step.result === 'not-yet-valid') domainKeys = keys;
      break;
    }
    if (step.result !== 'valid') break;
    zoneKeys = keys;

    // The next zone cut towards the domain: the first name below with a DS set.
    let advanced = false;
    for (const name of namesBetween(current, domain)) {
      const dsOutcome = material.ds[name];
      const records = recordsAt(dsOutcome, name, 'DS');
      if (records.length === 0) {
        if (name === domain) {
          if (dsOutcome?.ok) steps.push({ step: 'ds', name, type: 'DS', zone: display(current), result: 'insecure', detail: `${display(current)} publishes no DS record for ${name}: the zone is not signed as far as resolvers can tell` });
          else steps.push({ step: 'ds', name, type: 'DS', zone: display(current), result: 'indeterminate', detail: `The DS query for ${name} failed: ${dsOutcome ? dsOutcome.error : 'not asked'}` });
          return finish(steps, anchor, chainFromAnchor, now, material);
        }
        // A name with keys but no DS is an unsigned delegation: nothing below it can be secure.
        if (recordsAt(material.dnskey[name], name, 'DNSKEY').length > 0) {
          steps.push({ step: 'ds', name, type: 'DS', zone: display(current), result: 'insecure', detail: `${display(current)} publishes no DS record for ${name}` });
          return finish(steps, anchor, chainFromAnchor, now, material);
        }
        continue;
      }
      const checked = validateRrset(records, signaturesFor(dsOutcome!.ok ? dsOutcome!.answers : [], name, 'DS'), zoneKeys, current, nowSeconds);
      steps.push({
        step: 'ds',
        name,
        type: 'DS',
        zone: display(current),
        result: checked.result,
        detail: checked.result === 'valid' ? `DS set of ${name} signed by ${display(current)}` : describeFailure(`DS ${name}`, checked.result, checked.signatures),
        signatures: checked.signatures,
      });
      if (checked.result !== 'valid') return finish(steps, anchor, chainFromAnchor, now, material);
      zone = name;
      dsSet = records.map((r) => r.data);
      vouchedBy = display(current);
      advanced = true;
      break;
    }
    if (!advanced) break;
  }

  if (domainKeys.length > 0) steps.push(...checkData(domain, domainKeys, material, nowSeconds));
  return finish(steps, anchor, chainFromAnchor, now, material);
}

/** The domain's A/AAAA/MX sets and the proof for the name that does not exist. */
function checkData(domain: string, keys: readonly DnskeyRecord[], material: DnssecMaterial, nowSeconds: number): ValidationStep[] {
  const steps: ValidationStep[] = [];
  for (const { name, type, outcome } of material.data) {
    if (!outcome.ok || outcome.rcode !== 'NOERROR') continue;
    // A CNAME at the name is what the zone signs there; its target's records are another zone's business.
    const cname = recordsAt(outcome, name, 'CNAME');
    const checkedType = cname.length > 0 ? 'CNAME' : type;
    const rrset = cname.length > 0 ? cname : recordsAt(outcome, name, type);
    if (rrset.length === 0) continue;
    const base = { step: 'rrset' as const, name: canonicalName(name), type: checkedType, zone: domain };
    const sigs = signaturesFor(outcome.answers, name, checkedType);
    const signer = sigs[0] ? canonicalName(sigs[0].data.signersName) : undefined;
    if (signer && signer !== domain && isAtOrBelow(signer, domain)) {
      steps.push({ ...base, zone: signer, result: 'skipped', detail: `${checkedType} ${canonicalName(name)} is signed by the zone ${signer}, delegated below ${domain}` });
      continue;
    }
    const checked = validateRrset(rrset, sigs, keys, domain, nowSeconds);
    steps.push({
      ...base,
      result: checked.result,
      detail: checked.result === 'valid' ? `${checkedType} ${canonicalName(name)} signed by key ${checked.signatures.find((s) => s.result === 'valid')!.keyTag}` : describeFailure(`${checkedType} ${canonicalName(name)}`, checked.result, checked.signatures),
      signatures: checked.signatures,
    });
  }
  if (material.denial) steps.push(checkDenial(domain, keys, material.denial, nowSeconds));
  return steps;
}

function checkDenial(domain: string, keys: readonly DnskeyRecord[], denial: NonNullable<DnssecMaterial['denial']>, nowSeconds: number): ValidationStep {
  const base = { step: 'denial' as const, name: canonicalName(denial.name), type: 'A', zone: domain };
  const { outcome } = denial;
  if (!outcome.ok) return { ...base, result: 'indeterminate', detail: `The query for ${base.name} failed: ${outcome.error}` };
  if (outcome.rcode !== 'NXDOMAIN') return { ...base, result: 'skipped', detail: `${base.name} answered ${outcome.rcode} (a wildcard, say): there is no non-existence to prove` };
  const proofs = outcome.authorities.filter((r) => (r.type === 'NSEC' || r.type === 'NSEC3') && isAtOrBelow(r.name, domain));
  if (proofs.length === 0) return { ...base, result: 'missing', detail: `The NXDOMAIN answer for ${base.name} carries no NSEC or NSEC3 record: resolvers cannot tell it from a forged one` };
  // Each NSEC/NSEC3 record is its own RRset and must carry a good signature before it proves anything.
  const signatures: SignatureCheck[] = [];
  const trusted: dnsPacket.Answer[] = [];
  const failures: { owner: string; result: StepResult; detail: string }[] = [];
  for (const record of proofs) {
    const checked = validateRrset([record], signaturesFor(outcome.authorities, record.name, record.type), keys, domain, nowSeconds);
    signatures.push(...checked.signatures);
    if (checked.result === 'valid') trusted.push(record);
    else failures.push({ owner: canonicalName(record.name), result: checked.result, detail: describeFailure(`${record.type} ${canonicalName(record.name)}`, checked.result, checked.signatures) });
  }
  const nsec3 = trusted.filter((r): r is dnsPacket.Nsec3Answer => r.type === 'NSEC3');
  const nsec = trusted.filter((r): r is dnsPacket.NsecAnswer => r.type === 'NSEC');
  const proof = nsec3.length > 0 || proofs.some((r) => r.type === 'NSEC3') ? proveNxdomainNsec3(denial.name, nsec3, domain) : proveNxdomainNsec(denial.name, nsec, domain);
  if (proof.proven) {
    return { ...base, result: 'valid', detail: `${proof.kind.toUpperCase()} proves that ${base.name} does not exist (closest encloser ${proof.closestEncloser}, no wildcard)`, signatures, denial: proof };
  }
  const failure = failures[0];
  if (failure) return { ...base, result: failure.result, detail: `The denial of ${base.name} does not hold: ${failure.detail}`, signatures, denial: proof };
  return { ...base, result: 'bogus', detail: `The denial of ${base.name} does not hold: ${proof.why}`, signatures, denial: proof };
}

function finish(steps: ValidationStep[], anchor: string | undefined, chainFromAnchor: boolean, now: Date, material: DnssecMaterial): DnssecValidation {
  const failed = steps.find((s) => FAILURES.includes(s.result));
  const insecure = steps.find((s) => s.result === 'insecure' || s.result === 'unsupported-algorithm');
  const open = steps.find((s) => s.result === 'indeterminate');
  let result: ValidationResult;
  let reason: string;
  if (failed) [result, reason] = ['bogus', failed.detail];
  else if (insecure) [result, reason] = ['insecure', insecure.detail];
  else if (open || !chainFromAnchor || steps.length === 0) [result, reason] = ['indeterminate', open?.detail ?? (anchor === undefined ? 'No trust anchor covers the domain' : 'The chain above the domain could not be followed')];
  else [result, reason] = ['secure', `Every link validates from the trust anchor for ${display(anchor!)} down to ${display(material.domain)}`];
  const domain = canonicalName(material.domain);
  const domainSteps = steps.filter((s) => s.zone === domain || (s.step === 'dnskey' && s.name === display(domain)));
  const algorithms = [...new Set([...domainSteps.flatMap((s) => s.keys?.map((k) => k.algorithm) ?? []), ...domainSteps.flatMap((s) => s.signatures?.map((g) => g.algorithm) ?? [])])].sort((a, b) => a - b);
  return { result, reason, anchor: anchor === undefined ? undefined : display(anchor), chainFromAnchor, checkedAt: now.toISOString(), algorithms, steps };
}
