import { Unreadable } from "./result-problem";
import { pastDeadline, type TimeBudget } from "./time-budget";

/**
 * What reading one converter's result may cost (result-walk.ts): its bytes as JSON, counted as
 * they are read, and the review's time. A result is a graph, not a tree: one object reached from
 * two places is written twice, so 25 objects that each hold the next one twice are 2^24 paths,
 * and a list's `length` is whatever the converter set (`new Array(2e8)` holds nothing). Both
 * would run the process out of memory or time; counted as read, both fail as soon as they pass
 * the limit, naming where.
 */

/** CRDSHIFT_MAX_OBJECT_BYTES's default: the most one object may take as JSON. */
export const DEFAULT_MAX_OBJECT_BYTES = 3 * 1024 * 1024;

/** What a converter's result may take, the same for every result of a review. */
export interface ResultLimits {
  /** Deepest result accepted (CRDSHIFT_MAX_DEPTH). */
  maxDepth: number;
  /** Most bytes of JSON a result may take (CRDSHIFT_MAX_OBJECT_BYTES). */
  maxBytes: number;
  /** The review's time: a result still being read when it runs out fails. */
  time?: TimeBudget | undefined;
}

/** Bytes counted between two looks at the clock: none for an ordinary object, a few for the largest. */
const CLOCK_STEP = 4096;

/**
 * The count. Bytes are a lower bound of the JSON text's: a character counts one byte (UTF-8
 * and escapes take up to six), a number one; so a result is never refused for less than the
 * limit, and what is copied stays within a small multiple of it.
 */
export class ResultBudget {
  /** Bytes left before the next look at the clock, or the limit if that comes first. */
  private left: number;
  /** Bytes left under the limit beyond `left`. */
  private rest: number;

  constructor(
    private readonly maxBytes: number,
    private readonly time?: TimeBudget,
  ) {
    this.left = Math.min(CLOCK_STEP, maxBytes);
    this.rest = maxBytes - this.left;
  }

  /** Counts `bytes` more; throws an Unreadable past the limit or the deadline. */
  charge(bytes: number): void {
    if ((this.left -= bytes) < 0) this.overdrawn();
  }

  /**
   * A list of `length` items, before any is read: each takes at least two bytes (a value and a
   * comma), so a length the limit cannot hold fails here, never walked. Its items are counted
   * as they are read.
   */
  chargeList(length: number): void {
    this.chargeEntries(length, 2, "a list", "items");
  }

  /**
   * A map of `count` entries (labels, annotations), before any value is read: each takes at
   * least six bytes (a name and a value in quotes, a colon and a comma), so a count the limit
   * cannot hold fails here. Its names and values are counted as they are read.
   */
  chargeMap(count: number): void {
    this.chargeEntries(count, 6, "a map", "entries");
  }

  /** The words are put together only for the failure: lists are charged on the read path. */
  private chargeEntries(count: number, leastBytes: number, container: string, entries: string): void {
    if (leastBytes * count > this.left + this.rest)
      throw new Unreadable(
        `holds ${container} of ${count} ${entries}`,
        `, more than fit in ${this.maxBytes} bytes of JSON, this webhook's limit per object (CRDSHIFT_MAX_OBJECT_BYTES)`,
        undefined,
        "result-too-large",
      );
    this.charge(1);
  }

  private overdrawn(): void {
    const room = this.left + this.rest;
    if (room < 0)
      throw new Unreadable(
        `passes ${this.maxBytes} bytes of JSON`,
        ", this webhook's limit per object (CRDSHIFT_MAX_OBJECT_BYTES), an object counted at every place it appears",
        undefined,
        "result-too-large",
      );
    if (pastDeadline(this.time)) {
      const budget = this.time?.budgetMs !== undefined ? `budget of ${this.time.budgetMs} ms` : "deadline";
      throw new Unreadable(
        "was still being read",
        ` when the conversion ${budget} ran out: its getters, toJSON methods or proxies take too long`,
        undefined,
        "result-too-slow",
      );
    }
    this.left = Math.min(CLOCK_STEP, room);
    this.rest = room - this.left;
  }
}
