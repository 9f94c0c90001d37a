import * as z from 'zod';

/**
 * Names and short texts that come from outside and may end up in an email (issue 28 findings 5, 9
 * and 16): a person's or organisation's name, an IT provider's name, a support request's subject.
 * One line of text: control characters (C0, C1, DEL: CR and LF among them), the Unicode line and
 * paragraph separators and the bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
 * U+061C: they make "moc.live" read as "evil.com") are refused, never silently removed, so what is
 * stored is what the person typed. zod only: the frontend bundles the contracts that use it.
 */

/** The characters a single-line text may not hold. */
export const UNSAFE_TEXT_CHARACTERS = /[\p{Cc}\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/u;

export const singleLineTextMessages = {
  unsafe: 'Use one line of text, without line breaks, control characters or text-direction marks',
} as const;

/** True when `text` holds no character of {@link UNSAFE_TEXT_CHARACTERS}. */
export function isSingleLineText(text: string): boolean {
  return !UNSAFE_TEXT_CHARACTERS.test(text);
}

/**
 * A trimmed single-line text of at most `max` characters (and at least `min`, default 0). `required`
 * is the message for a missing or too short value, `tooLong` for one past `max`, `unsafe` for a
 * forbidden character (default {@link singleLineTextMessages.unsafe}).
 */
export function singleLineText(options: { max: number; min?: number; required?: string; tooLong?: string; unsafe?: string }) {
  const tooLong = options.tooLong ?? `At most ${options.max} characters`;
  const required = options.required ?? 'This field is required';
  let schema = z.string({ error: required }).trim();
  if (options.min) schema = schema.min(options.min, required);
  return schema.max(options.max, tooLong).refine(isSingleLineText, options.unsafe ?? singleLineTextMessages.unsafe);
}

/**
 * A stored name as an email shows it, quoted after fixed wording: defence in depth for names stored
 * before the contracts refused unsafe characters (those become spaces, runs of spaces one).
 */
export function quotedName(name: string): string {
  const flat = name.replace(new RegExp(UNSAFE_TEXT_CHARACTERS.source, 'gu'), ' ').replace(/\s+/g, ' ').trim();
  return `“${flat}”`;
}
