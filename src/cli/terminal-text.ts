import { clip, REASON_LIMIT } from "../json";

/**
 * Characters of one message printed: room for a sentence around a reason already clipped to
 * REASON_LIMIT (a webhook's error, as webhook-call keeps it), so that its count of what was
 * left out is the one printed.
 */
export const PRINT_LIMIT = 2 * REASON_LIMIT;

/**
 * Characters a terminal acts on rather than shows: C0 and C1 controls (ESC starts a sequence
 * that can rewrite the screen, CR overwrites the line), DEL, line and paragraph separators, and
 * the bidirectional overrides and isolates that reorder what is read.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ACTING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text from outside crdshift (a webhook's reply, a file, a URL) as the CLI prints it: clipped to
 * `limit` characters, then every character a terminal would act on written as an escape
 * (`\x1b`, `\r`, `\u202e`), so one message stays one line and cannot rewrite the screen.
 */
export function terminalText(text: string, limit = PRINT_LIMIT): string {
  return clip(text, limit).replace(ACTING, escape);
}

function escape(character: string): string {
  const code = character.charCodeAt(0);
  return NAMED[character] ?? (code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`);
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}
