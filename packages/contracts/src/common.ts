import { z } from 'zod';

export const MessageResponse = z.object({ message: z.string() });

/**
 * The text rule (issue 11), for every string a caller sends. Never accepted: NUL and the other control
 * characters (C0, DEL, C1: escape sequences start with ESC), format characters (bidi overrides, embeddings
 * and isolates, zero-width space, word joiner, byte-order mark, soft hyphen...), line and paragraph
 * separators and lone surrogates. Two format characters are letters' business and stay: the zero-width
 * non-joiner and joiner (Persian, Indic scripts, emoji sequences). Multi-line fields also take line feeds
 * and tabs (\r\n and \r become \n).
 */
const FORBIDDEN = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]|(?![\u200C\u200D])\p{Cf}/u;
const FORBIDDEN_MULTILINE = /(?![\n\t])\p{Cc}|[\p{Cs}\p{Zl}\p{Zp}]|(?![\u200C\u200D])\p{Cf}/u;
/** Whitespace and invisible format characters: a value made only of them is empty. */
const INVISIBLE = /[\s\p{Cf}]/gu;

/** Whether a caller's text holds a character the text rule refuses. */
export const hasForbiddenCharacters = (value: string, multiline = false) =>
  (multiline ? FORBIDDEN_MULTILINE : FORBIDDEN).test(value);

/** '' for a value made only of whitespace and zero-width characters, else the value. */
export const blankToEmpty = (value: string) => (value.replace(INVISIBLE, '') === '' ? '' : value);

export interface TextOptions {
  /** The field as a screen names it, starting a sentence: "First name". */
  label: string;
  max: number;
  /** The message when the value is missing or empty; without it, empty ('') is a value. */
  required?: string;
  /** Line feeds and tabs allowed (email body, notes, descriptions). */
  multiline?: boolean;
  /** What the screen shows when it is too long (default "Must be at most {max} characters"). */
  maxMessage?: string;
  /** The message when the value is missing or not a string (default: `required`, else "{label} must be text"). */
  typeMessage?: string;
  /** Identifiers in paths are compared as sent, not trimmed. */
  trim?: boolean;
}

/**
 * A string field under the text rule: NFC-normalized, blank-only values read as empty, trimmed, then
 * refused with "{label} must be a single line" or "{label} contains characters that are not allowed",
 * bounded.
 * A ZodString: `.regex()`, `.min()`, `.refine()` and `.pipe()` chain after it.
 */
export function text(options: TextOptions) {
  const { label, max, required, multiline = false, trim = true } = options;
  let schema = z
    .string({ error: options.typeMessage ?? required ?? `${label} must be text` })
    .normalize('NFC')
    .overwrite((value) => blankToEmpty(multiline ? value.replace(/\r\n?/g, '\n') : value));
  // Trimmed first: a pasted trailing line break or tab is whitespace, not a reason to refuse.
  if (trim) schema = schema.trim();
  if (!multiline)
    schema = schema.refine((value) => !/[\n\r]/.test(value), {
      message: `${label} must be a single line`,
      abort: true,
    });
  schema = schema.refine((value) => !hasForbiddenCharacters(value, multiline), {
    message: `${label} contains characters that are not allowed`,
    abort: true,
  });
  if (required) schema = schema.min(1, required);
  return schema.max(max, options.maxMessage ?? `Must be at most ${max} characters`);
}

/** An identifier in a path or query (a workspace id...): the text rule, untrimmed; too long means `notFound`. */
export const idText = (label: string, max: number, notFound: string) =>
  text({ label, max, maxMessage: notFound, trim: false, typeMessage: notFound });

/** Spec section 5: text, at sign, text, dot, text, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MESSAGE = 'Please enter a valid email address';

/**
 * The spec's shape, and nothing a mailer reads as another or a second address: `me@evil.com,x.acme.com` has
 * the shape, and a domain that reads as a subdomain of acme.com (proving a vendor workspace there), but is
 * delivered to me@evil.com; `jo@globex.test<root>` is delivered to the relay's local "root". So: none of RFC
 * 5322's specials in the local part (`(`, `)`, `<`, `>`, `[`, `]`, `:`, `;`, `\`, `,`, `"`), a domain of
 * letters, digits and hyphens between dots (docs/product-decisions.md, "Addresses an account may take").
 */
export const PLAIN_ADDRESS = /^[^\s@()<>[\]:;\\,"]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u;

/**
 * An email address, trimmed and lower-cased, under the text rule, a plain one (`PLAIN_ADDRESS`) wherever it
 * is taken; `message` is what the screen shows when it is not one, `label` names the field when it holds
 * characters that are not allowed.
 */
export const emailField = (message: string, label = 'Email') =>
  text({ label, max: 254, typeMessage: message, maxMessage: `${label} must be at most 254 characters` })
    // A plain address has the spec's shape (EMAIL_PATTERN) and more: one check, one message.
    .regex(PLAIN_ADDRESS, message)
    .transform((email) => email.toLowerCase());

export const Email = emailField(EMAIL_MESSAGE);

/**
 * A URL or website as typed, under the text rule; its own checks (`.refine`, `.pipe(z.url())`) follow.
 */
export const urlText = (label: string, max: number, required?: string) =>
  text({ label, max, required, typeMessage: required ?? 'Must be a valid URL' });

/** A required single-line field: `message` when missing or empty. */
export const requiredText = (message: string, max = 200, label = labelOf(message)) =>
  text({ label, max, required: message });

/** "First name is required" -> "First name": the field's name from its required message. */
function labelOf(message: string): string {
  return /^(.+?) (?:is|are) required$/.exec(message)?.[1] ?? 'This field';
}

/**
 * A password as typed: never trimmed or normalized (the hash is of the exact characters), but control
 * characters (NUL, ESC, line breaks...) are refused.
 */
export const passwordText = (required: string, max = 1000) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(max, `Password must be at most ${max} characters`)
    .refine((value) => !/\p{Cc}/u.test(value), 'Password contains characters that are not allowed');
