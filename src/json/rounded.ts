import { afterSpace, changedValue, escapedBefore, isNumberCharacter, OutOfRange } from "./numbers";
import { replaceLeaves } from "./tree-leaves";

/**
 * Integers beyond ±2^53 put back exact into the tree JSON.parse made of the text itself: no
 * second text to build and parse (the markers' way, numbers.ts, which most of their cost
 * was). JSON.parse rounds such an integer to a double of magnitude 2^53 or more, and every
 * number the text spells with that magnitude has a run of sixteen digits or an exponent, which
 * a regular expression finds. Each such spelling is noted under the double it makes; a walk of
 * the tree then swaps each double of that magnitude for the `bigint` its spelling is.
 *
 * Which number of the text a value came from is never asked: the double says it, as long as no
 * two different spellings make the same double (9223372036854775806 and 9223372036854775807
 * both make 2^63), so the order of the tree's names and keys repeated in the text cannot mislead
 * it. Where two do, or where a number is beyond a double's range (an `OutOfRange` to report),
 * the answer is undefined and the markers decide. Spellings found in strings are noted too: the
 * tree holds no number made from them, and they only make such a clash likelier.
 */
export function putBackRounded(text: string, root: unknown): { value: unknown; lossless: boolean } | undefined {
  const spellings = new Spellings();
  let integers = 0;
  let last = "";
  const candidate = MAGNITUDE;
  candidate.lastIndex = 0;
  // test(), not exec(): no match array to build. The match is all number characters but for
  // what may follow an exponent; the whole number is the run of them around its last digit.
  while (candidate.test(text)) {
    let at = candidate.lastIndex - 1;
    if (!isNumberCharacter(text.charCodeAt(at))) at--;
    let start = at;
    while (start > 0 && isNumberCharacter(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end++;
    candidate.lastIndex = end;
    // The text is JSON (JSON.parse read it): before a colon or after a backslash, in a string.
    if (text.charCodeAt(afterSpace(text, end)) === 58 /* : */ || escapedBefore(text, start)) continue;
    const token = text.slice(start, end);
    if (token === last) {
      integers++; // an integer, noted already: the common case of the same value in every object
      continue;
    }
    const integer = INTEGER.test(token);
    if (!integer && changedValue(token) instanceof OutOfRange) return undefined;
    const double = Number(token); // NaN for what is no number: passed over
    if (!(double >= TWO_TO_53 || double <= -TWO_TO_53)) continue;
    if (!spellings.note(double, token)) return undefined;
    if (integer) {
      integers++;
      last = token;
    }
  }
  if (integers === 0) return { value: root, lossless: false };
  return swapRounded(root, spellings, integers);
}

/** The spelling of each double of magnitude 2^53 or more: the first held apart, as most texts have one. */
class Spellings {
  private firstDouble = Number.NaN;
  private firstSpelling: string | undefined;
  private others: Map<number, string> | undefined;
  // The last double swapped and what it became: the same value in every object is common.
  private lastDouble = Number.NaN;
  private lastSwap: bigint | null | undefined;

  /** Notes `double` as spelled `spelling`; false if it was spelled otherwise before. */
  note(double: number, spelling: string): boolean {
    if (this.firstSpelling === undefined) {
      this.firstDouble = double;
      this.firstSpelling = spelling;
      return true;
    }
    if (double === this.firstDouble) return spelling === this.firstSpelling;
    this.others ??= new Map();
    const seen = this.others.get(double);
    if (seen === undefined) this.others.set(double, spelling);
    return seen === undefined || seen === spelling;
  }

  /**
   * What a number of the tree becomes: its `bigint` if it is a rounded integer; undefined if
   * it stays (a safe number, or one spelled with an exponent or a fraction); null if it is
   * spelled nowhere the scan looked, which would be a mistake in it: then nothing is trusted.
   */
  swapFor(item: number): bigint | null | undefined {
    if (!(item >= TWO_TO_53 || item <= -TWO_TO_53)) return undefined;
    if (item === this.lastDouble) return this.lastSwap;
    const spelling = item === this.firstDouble ? this.firstSpelling : this.others?.get(item);
    this.lastDouble = item;
    this.lastSwap = spelling === undefined ? null : INTEGER.test(spelling) ? BigInt(spelling) : undefined;
    return this.lastSwap;
  }
}

/**
 * Where a number of magnitude 2^53 or more may be spelled: sixteen digits; an exponent of two
 * digits or more; or one of one digit after seven digits (below them, 10^9 times the number
 * stays short of 2^53). With a negative exponent only sixteen digits reach that magnitude, but
 * one of two digits or more may leave a double's range (`1e-400`). An exponent must be followed
 * by what may follow a number, which leaves out ids such as `9c1e52d`. The digits spelled out:
 * V8's regex engine skips ahead on a fixed run of them.
 */
const MAGNITUDE =
  /\d(?:\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d|[eE][+-]?\d\d+(?:[,}\]\s]|$)|\d\d\d\d\d\d(?:\.\d+)?[eE]\+?\d(?:[,}\]\s]|$))/g;
const INTEGER = /^-?[1-9]\d*$/;
const TWO_TO_53 = 2 ** 53;

/** Each rounded integer of the tree as the `bigint` its spelling is; undefined where a number is spelled nowhere the scan looked. */
function swapRounded(
  root: unknown,
  spellings: Spellings,
  integers: number,
): { value: unknown; lossless: boolean } | undefined {
  // null: a number of that magnitude the scan did not see, a mistake in it; nothing is trusted.
  const put = replaceLeaves(root, "number", (item: number) => spellings.swapFor(item), integers);
  return put && { value: put.value, lossless: put.replaced > 0 };
}
