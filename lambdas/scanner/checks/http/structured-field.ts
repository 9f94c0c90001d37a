/**
 * RFC 8941 Structured Field dictionaries, as Permissions-Policy is written: a strict parser that
 * fails the whole field on the first error, as browsers do (they then ignore the header).
 */

export type BareItem =
  | { type: 'integer' | 'decimal'; value: number }
  | { type: 'string' | 'token' | 'bytes'; value: string }
  | { type: 'boolean'; value: boolean };

export interface Item {
  item: BareItem;
  parameters: [string, BareItem][];
}

export interface InnerList {
  items: Item[];
  parameters: [string, BareItem][];
}

export type DictionaryMember = Item | InnerList;

export class StructuredFieldError extends Error {
  constructor(
    message: string,
    /** Offset in the field where parsing stopped. */
    readonly position: number,
  ) {
    super(`${message} at character ${position + 1}`);
  }
}

export const isInnerList = (member: DictionaryMember): member is InnerList => 'items' in member;

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

/** Parses a dictionary field value (repeated header lines joined with ", "); throws StructuredFieldError. */
export function parseDictionary(field: string): [string, DictionaryMember][] {
  const input = field.replace(/^ +| +$/g, '');
  let i = 0;
  const fail = (message: string): never => {
    throw new StructuredFieldError(message, i);
  };
  const skipSpaces = () => {
    while (input[i] === ' ') i++;
  };
  const skipOws = () => {
    while (input[i] === ' ' || input[i] === '\t') i++;
  };

  const key = (): string => {
    const start = i;
    if (!/[a-z*]/.test(input[i] ?? '')) fail(`a key must start with a lower-case letter or "*", found ${describe(input[i])}`);
    while (/[a-z0-9_\-.*]/.test(input[i] ?? '')) i++;
    return input.slice(start, i);
  };

  const bareItem = (): BareItem => {
    const c = input[i] ?? '';
    if (c === '-' || /[0-9]/.test(c)) {
      const match = /^-?[0-9]{1,15}(\.[0-9]{1,3})?/.exec(input.slice(i));
      if (!match) return fail('malformed number');
      i += match[0].length;
      return { type: match[1] ? 'decimal' : 'integer', value: Number(match[0]) };
    }
    if (c === '"') {
      i++;
      let value = '';
      for (;;) {
        const ch = input[i];
        if (ch === undefined) return fail('unterminated string');
        i++;
        if (ch === '"') return { type: 'string', value };
        if (ch === '\\') {
          const next = input[i];
          if (next !== '"' && next !== '\\') return fail('invalid escape in string');
          value += next;
          i++;
        } else if (ch < ' ' || ch > '~') {
          return fail('invalid character in string');
        } else {
          value += ch;
        }
      }
    }
    if (c === '*' || /[A-Za-z]/.test(c)) {
      const start = i;
      i++;
      while (TCHAR.test(input[i] ?? '') || input[i] === ':' || input[i] === '/') i++;
      return { type: 'token', value: input.slice(start, i) };
    }
    if (c === ':') {
      const end = input.indexOf(':', i + 1);
      if (end < 0 || !/^[A-Za-z0-9+/=]*$/.test(input.slice(i + 1, end))) return fail('malformed byte sequence');
      const value = input.slice(i + 1, end);
      i = end + 1;
      return { type: 'bytes', value };
    }
    if (c === '?') {
      if (input[i + 1] !== '0' && input[i + 1] !== '1') return fail('malformed boolean');
      i += 2;
      return { type: 'boolean', value: input[i - 1] === '1' };
    }
    return fail(`unexpected ${describe(c)}`);
  };

  const parameters = (): [string, BareItem][] => {
    const list: [string, BareItem][] = [];
    while (input[i] === ';') {
      i++;
      skipSpaces();
      const name = key();
      let value: BareItem = { type: 'boolean', value: true };
      if (input[i] === '=') {
        i++;
        value = bareItem();
      }
      list.push([name, value]);
    }
    return list;
  };

  const itemOrInnerList = (): DictionaryMember => {
    if (input[i] !== '(') return { item: bareItem(), parameters: parameters() };
    i++;
    const items: Item[] = [];
    for (;;) {
      skipSpaces();
      if (input[i] === ')') {
        i++;
        return { items, parameters: parameters() };
      }
      if (i >= input.length) return fail('unterminated inner list');
      items.push({ item: bareItem(), parameters: parameters() });
      if (i >= input.length) return fail('unterminated inner list');
      if (input[i] !== ' ' && input[i] !== ')') return fail(`expected a space or ")" in an inner list, found ${describe(input[i])}`);
    }
  };

  const members: [string, DictionaryMember][] = [];
  if (input.length === 0) return members;
  for (;;) {
    const name = key();
    let member: DictionaryMember;
    if (input[i] === '=') {
      i++;
      member = itemOrInnerList();
    } else {
      member = { item: { type: 'boolean', value: true }, parameters: parameters() };
    }
    // A repeated key: the last value wins (RFC 8941 §4.2.2).
    const existing = members.findIndex(([k]) => k === name);
    if (existing >= 0) members.splice(existing, 1);
    members.push([name, member]);
    skipOws();
    if (i >= input.length) return members;
    if (input[i] !== ',') fail(`expected "," between members, found ${describe(input[i])}`);
    i++;
    skipOws();
    if (i >= input.length) fail('trailing comma');
  }
}

function describe(char: string | undefined): string {
  return char === undefined ? 'the end' : `"${char}"`;
}
