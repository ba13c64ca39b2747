/**
 * The bound on memory held by the reviews being read and converted at once, per server (isolate,
 * process), in bytes as conversion/held-memory.ts estimates them: first from a request's length,
 * then from what its body turned out to hold. This is what keeps concurrent large reviews within
 * the platform's memory. Every platform's review route goes through one of these (see
 * createWebhook); nothing else holds request bytes.
 */
export interface BytesInFlight {
  /**
   * Room for `bytes` now, or undefined if they do not fit or others are waiting (first come,
   * first served: no request overtakes one in line). `unsized`: the bytes are the least the body
   * holds, its `resize` to come once it is read and scanned; one such lease at a time.
   */
  tryReserve(bytes: number, unsized?: boolean): Lease | undefined;
  /**
   * Room for `bytes` once the requests ahead have released theirs, or undefined after waiting
   * `maxWaitMs`, or at once when `maxWaiting` requests are already in line.
   */
  reserve(bytes: number, unsized?: boolean): Promise<Lease | undefined>;
  /** Bytes held now, by every lease together. */
  readonly heldBytes: number;
  /** Requests in line now. */
  readonly waitingCount: number;
  readonly capBytes: number;
}

/** What one request holds; released once, on every way the request ends. */
export interface Lease {
  /**
   * Counts `bytes` more, as a body without a declared length streams in: false, counting
   * nothing, if that would pass the cap (the request is then answered with `busy`; it does not
   * wait holding what it has, which two streams could do for ever).
   */
  grow(bytes: number): boolean;
  /**
   * Counts `bytes` in all from now on, once the body says what it holds: fewer always succeeds
   * and lets those waiting in; more is `grow`n, and false, changing nothing, if that would pass the cap.
   */
  resize(bytes: number): boolean;
  /**
   * Waits for the room the last refused `resize` asked for: true once the lease counts those
   * bytes, false after `maxWaitMs`, or at once when no resize was refused, another lease is
   * already waiting to grow, or the bytes pass the cap. Two requests admitted on their length may each turn out to hold more than
   * half the cap; with no wait both would be refused, and again when sent again. The one lease
   * that waits goes before every request in line, and holds what it has meanwhile: the others
   * holding bytes are converting, or are refused here, so the room comes.
   */
  waitForRefused(): Promise<boolean>;
  /** Gives the bytes back and lets those waiting in. A second call does nothing. */
  release(): void;
}

export interface BytesInFlightOptions {
  capBytes: number;
  maxWaitMs?: number;
  maxWaiting?: number;
}

/**
 * How long a request waits in line before its 429. The apiserver gives a conversion 30 s in all
 * and retries a 429 that names a Retry-After; waiting here spares it sending the body again, but
 * must leave it time for that retry.
 */
export const MAX_WAIT_MS = 10_000;
/** How many requests may wait at once; more are answered 429 at once. A waiting one holds no body. */
const MAX_WAITING = 64;
/** The Retry-After of a 429, in seconds: a whole number, the only form the apiserver honours. */
export const RETRY_AFTER_SECONDS = 1;

interface Waiter {
  bytes: number;
  unsized: boolean;
  grant: (lease: Lease | undefined) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The one lease waiting to grow, by `bytes` more. */
interface Grower {
  bytes: number;
  grant: (grown: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
}

export function createBytesInFlight({
  capBytes,
  maxWaitMs = MAX_WAIT_MS,
  maxWaiting = MAX_WAITING,
}: BytesInFlightOptions): BytesInFlight {
  let held = 0;
  const line: Waiter[] = [];
  let grower: Grower | undefined;
  // Whether a lease counted only the least its body holds (`unsized`) has yet to learn what it
  // holds: one at a time, so that a burst of large bodies is not read all at once on their
  // length, to be refused once their scans say what they hold (their garbage on top of the one
  // converting).
  let unsizedOut = false;

  const lease = (bytes: number, unsized: boolean): Lease => {
    held += bytes;
    let mine = bytes;
    let released = false;
    let refused: number | undefined;
    if (unsized) unsizedOut = true;
    // Sized once resized (or refused, having waited), or released.
    const sized = () => {
      if (!unsized) return;
      unsized = false;
      unsizedOut = false;
    };
    const grow = (more: number) => {
      if (released || held + more > capBytes) return false;
      held += more;
      mine += more;
      return true;
    };
    const resize = (total: number) => {
      if (released) return false;
      if (total > mine) {
        if (grow(total - mine)) {
          sized();
          admitWaiting();
          return true;
        }
        refused = total;
        return false;
      }
      held -= mine - total;
      mine = total;
      sized();
      admitWaiting();
      return true;
    };
    return {
      grow,
      resize,
      waitForRefused() {
        const total = refused;
        if (total === undefined || released || grower || total > capBytes) {
          refused = undefined;
          sized();
          return Promise.resolve(false);
        }
        const grown = resize(total);
        refused = undefined;
        if (grown) return Promise.resolve(true);
        return new Promise((grant) => {
          const waiting: Grower = {
            bytes: total - mine,
            grant: (grown) => {
              grower = undefined;
              if (grown) mine += waiting.bytes;
              sized();
              grant(grown);
            },
            timer: setTimeout(() => {
              waiting.grant(false);
              admitWaiting();
            }, maxWaitMs),
          };
          grower = waiting;
        });
      },
      release() {
        if (released) return;
        released = true;
        held -= mine;
        sized();
        admitWaiting();
      },
    };
  };

  // The lease waiting to grow first, then whoever is first in line and fits, then the next: never
  // one behind it.
  const admitWaiting = () => {
    if (grower) {
      if (held + grower.bytes > capBytes) return;
      held += grower.bytes;
      clearTimeout(grower.timer);
      grower.grant(true);
    }
    while (line.length > 0 && fits(line[0]!.bytes, line[0]!.unsized)) {
      const next = line.shift()!;
      clearTimeout(next.timer);
      next.grant(lease(next.bytes, next.unsized));
    }
  };

  const fits = (bytes: number, unsized: boolean) => held + bytes <= capBytes && !(unsized && unsizedOut);

  const tryReserve = (bytes: number, unsized = false) =>
    line.length === 0 && !grower && bytes <= capBytes && fits(bytes, unsized) ? lease(bytes, unsized) : undefined;

  return {
    tryReserve,
    reserve(bytes, unsized = false) {
      const now = tryReserve(bytes, unsized);
      if (now) return Promise.resolve(now);
      if (bytes > capBytes || line.length >= maxWaiting) return Promise.resolve(undefined);
      return new Promise((grant) => {
        const waiter: Waiter = {
          bytes,
          unsized,
          grant,
          timer: setTimeout(() => {
            line.splice(line.indexOf(waiter), 1);
            grant(undefined);
            // A large request giving up may let smaller ones behind it in.
            admitWaiting();
          }, maxWaitMs),
        };
        line.push(waiter);
      });
    },
    get heldBytes() {
      return held;
    },
    get waitingCount() {
      return line.length;
    },
    capBytes,
  };
}
