/**
 * The SPF record grammar (RFC 7208 §4.5, §4.6.1, §5–7): which TXT string is an SPF record, and its
 * terms with every syntax error a receiver would stop at. Pure; the walk over DNS is in spf.ts.
 */
import { isIPv6 } from 'node:net';

export type Qualifier = '+' | '-' | '~' | '?';

export interface SpfTerm {
  kind: 'mechanism' | 'modifier';
  /** Mechanisms only; `+` when the record leaves it out. */
  qualifier?: Qualifier;
  /** Lower-cased mechanism or modifier name: all, include, a, mx, ptr, ip4, ip6, exists, redirect, exp … */
  name: string;
  /** The domain-spec, address or modifier value, when there is one. */
  value?: string;
  raw: string;
}

export interface ParsedSpf {
  terms: SpfTerm[];
  errors: string[];
}

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);

/** True when a TXT string is an SPF record: exactly `v=spf1`, alone or followed by a space (RFC 7208 §4.5). */
export function isSpfRecord(txt: string): boolean {
  return /^v=spf1( |$)/i.test(txt);
}

/**
 * Parses one SPF record into terms; syntax errors are collected, not thrown. The grammar is RFC
 * 7208 §4.6.1 and §5–7: terms separated by spaces only, printable ASCII, domain-specs ending in a
 * valid top label or a macro, CIDR lengths without leading zeros and in range, macros well formed.
 * A term with an error is reported and left out of the terms: receivers stop with a permanent
 * error before looking anything up for it.
 */
export function parseSpf(record: string): ParsedSpf {
  const [version, ...rest] = record.split(' ').filter((part) => part !== '');
  const errors: string[] = [];
  if (!version || version.toLowerCase() !== 'v=spf1') errors.push(`The record does not start with v=spf1: "${record.slice(0, 40)}"`);
  const terms: SpfTerm[] = [];
  const seenModifiers = new Set<string>();
  for (const raw of rest) {
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/is.exec(raw);
    if (modifier) {
      const name = modifier[1]!.toLowerCase();
      const value = modifier[2]!;
      const problem = name === 'redirect' || name === 'exp' ? (value ? domainSpecProblem(value) : 'no domain') : scanMacroString(value, false).problem;
      if ((name === 'redirect' || name === 'exp') && seenModifiers.has(name)) errors.push(`"${name}=" appears more than once`);
      seenModifiers.add(name);
      if (problem) errors.push(problem === 'no domain' ? `"${raw}" has no domain` : `${problem} in "${raw}"`);
      else terms.push({ kind: 'modifier', name, value, raw });
      continue;
    }
    const directive = /^([+\-~?]?)([a-z0-9]+)(.*)$/is.exec(raw);
    const name = directive?.[2]?.toLowerCase();
    if (!directive || !name || !MECHANISMS.has(name)) {
      errors.push(`Unknown term "${raw}"`);
      continue;
    }
    const qualifier = (directive[1] || '+') as Qualifier;
    const parsed = mechanismArgument(name, directive[3]!);
    if ('problem' in parsed) {
      errors.push(`${parsed.problem} in "${raw}"`);
      continue;
    }
    terms.push({ kind: 'mechanism', qualifier, name, ...(parsed.value !== undefined ? { value: parsed.value } : {}), raw });
  }
  return { terms, errors };
}

/** ip4-network: four qnums, no leading zeros (RFC 7208 §5.6). */
const IP4_NETWORK = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A CIDR length: digits without a leading zero, at most 32 (IPv4) or 128 (IPv6). */
function cidrProblem(length: string | undefined, family: 4 | 6): string | undefined {
  if (length === undefined) return undefined;
  const max = family === 4 ? 32 : 128;
  if (!/^(0|[1-9]\d*)$/.test(length)) return `Invalid IPv${family} prefix length /${length}`;
  return Number(length) > max ? `IPv${family} prefix above /${max}` : undefined;
}

/** What follows a mechanism's name: `:domain-spec`, an address, CIDR lengths, as each mechanism allows. */
function mechanismArgument(name: string, argument: string): { value?: string } | { problem: string } {
  switch (name) {
    case 'all':
      return argument === '' ? {} : { problem: 'all takes no argument' };
    case 'include':
    case 'exists': {
      if (!argument.startsWith(':') || argument === ':') return { problem: `${name} needs a domain` };
      const problem = domainSpecProblem(argument.slice(1));
      return problem ? { problem } : { value: argument.slice(1) };
    }
    case 'ptr': {
      if (argument === '') return {};
      if (!argument.startsWith(':')) return { problem: 'ptr takes only a domain' };
      const problem = argument === ':' ? 'ptr: needs a domain after the colon' : domainSpecProblem(argument.slice(1));
      return problem ? { problem } : { value: argument.slice(1) };
    }
    case 'a':
    case 'mx': {
      // A domain-spec may itself hold "/" (a:foo:bar/baz.example.com): the CIDR lengths are only a trailing /N and //N.
      const parts = /^(?::(.*?))?(?:\/(\d+))?(?:\/\/(\d+))?$/s.exec(argument);
      if (!parts) return { problem: `${name} takes ":domain" and CIDR lengths only` };
      const [, domain, ip4, ip6] = parts;
      if (domain === '') return { problem: `${name}: needs a domain after the colon` };
      const problem = (domain !== undefined ? domainSpecProblem(domain) : undefined) ?? cidrProblem(ip4, 4) ?? cidrProblem(ip6, 6);
      return problem ? { problem } : domain !== undefined ? { value: domain } : {};
    }
    case 'ip4':
    case 'ip6': {
      const family = name === 'ip4' ? 4 : 6;
      const parts = /^:([^/]*)(?:\/(\d+))?$/.exec(argument);
      if (!parts || !(family === 4 ? IP4_NETWORK.test(parts[1]!) : isIPv6(parts[1]!))) return { problem: `Invalid IPv${family} address` };
      const problem = cidrProblem(parts[2], family);
      return problem ? { problem } : { value: parts[1]! };
    }
    default:
      return { problem: 'Unknown mechanism' };
  }
}

/** Macro letters (RFC 7208 §7.2); c, r and t only in explanation text, never in a domain-spec. */
const MACRO_LETTERS = 'slodiphv';
const EXPLANATION_ONLY_LETTERS = 'crt';

/**
 * Reads a macro-string (RFC 7208 §7.1): visible ASCII except a bare "%"; "%%", "%_", "%-" and
 * "%{letter digits [r] delimiters}" are the only macros. Returns the first problem, if any, and
 * the literal text after the last macro (where a domain-spec's top label must be).
 */
function scanMacroString(text: string, inDomain: boolean): { problem?: string; tail: string } {
  let tail = '';
  for (let i = 0; i < text.length; ) {
    const char = text[i]!;
    const code = char.charCodeAt(0);
    if (char === '%') {
      const next = text[i + 1];
      if (next === '%' || next === '_' || next === '-') {
        tail = '';
        i += 2;
        continue;
      }
      const macro = /^%\{([a-z])(\d*)(r?)([-.+,/_=]*)\}/i.exec(text.slice(i));
      if (!macro) return { problem: `Invalid macro "${text.slice(i, i + 6)}" (a literal % is written %%)`, tail };
      const letter = macro[1]!.toLowerCase();
      if (!MACRO_LETTERS.includes(letter) && !(EXPLANATION_ONLY_LETTERS.includes(letter) && !inDomain)) {
        return { problem: `Macro letter "${macro[1]}" is not allowed here`, tail };
      }
      tail = '';
      i += macro[0].length;
      continue;
    }
    if (code < 0x21 || code > 0x7e) return { problem: `Character ${JSON.stringify(char)} is not allowed (printable ASCII only, terms separated by spaces)`, tail };
    tail += char;
    i++;
  }
  return { tail };
}

/** A top label: letters and digits, not all digits, hyphens only inside (RFC 7208 §7.1 toplabel). */
const TOPLABEL = /^(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])$/i;

/**
 * The problem with a domain-spec, if any: a macro-string ending in a macro or in "." and a valid
 * top label (so an IP literal, a single label or "example.com:8080" is not a domain). A
 * domain-spec without macros must also be a name DNS can hold: no empty label, labels of at most
 * 63 characters, 253 in all.
 */
function domainSpecProblem(spec: string): string | undefined {
  const scanned = scanMacroString(spec, true);
  if (scanned.problem) return scanned.problem;
  const endsInMacro = scanned.tail === '' && spec !== '';
  if (!endsInMacro) {
    const tail = scanned.tail.replace(/\.$/, '');
    const dot = tail.lastIndexOf('.');
    if (dot < 0 || !TOPLABEL.test(tail.slice(dot + 1))) return `"${spec}" is not a domain name (it must end in a dot and a top label such as .com)`;
  }
  if (!hasMacro(spec)) {
    const labels = spec.replace(/\.$/, '').split('.');
    if (labels.some((label) => label === '')) return `"${spec}" has an empty label`;
    if (labels.some((label) => label.length > 63) || spec.length > 253) return `"${spec}" is longer than DNS allows`;
  }
  return undefined;
}

/** A domain-spec with macros (%{i} …) depends on the message being checked: it cannot be looked up here. */
export function hasMacro(spec: string): boolean {
  return spec.includes('%');
}
