import type { RewriteCounts } from "../../migration";
import { terminalText } from "../terminal-text";

/** A TTY's line is redrawn at most this often; a log gets a line at most this often. */
const TTY_INTERVAL_MS = 100;
const LOG_INTERVAL_MS = 10_000;

/**
 * The progress of a rewrite on stderr: on a terminal one line redrawn in place, in a log (not
 * a TTY) a line every few seconds at most, so a large migration does not fill it.
 */
export function progressLine(
  err: (text: string) => void,
  tty: boolean,
  crd: string,
  now: () => number = Date.now,
): { update: (counts: RewriteCounts) => void; end: () => void } {
  // The first line waits an interval too: a short migration prints only its summary.
  let last = now();
  let drawn = false;
  // The CRD's name may come from the cluster (--all): escaped, as every other line is.
  const name = terminalText(crd);
  const text = (counts: RewriteCounts) =>
    `${name}: ${counts.rewritten} rewritten of ${counts.listed} listed` +
    (counts.gone > 0 ? `, ${counts.gone} deleted meanwhile` : "") +
    (counts.conflicts > 0 ? `, ${counts.conflicts} conflicts retried` : "");
  return {
    update(counts) {
      const at = now();
      if (at - last < (tty ? TTY_INTERVAL_MS : LOG_INTERVAL_MS)) return;
      last = at;
      if (tty) {
        err(`\r\x1b[2K${text(counts)}`);
        drawn = true;
      } else err(`${text(counts)}\n`);
    },
    end() {
      if (drawn) err("\r\x1b[2K");
      drawn = false;
    },
  };
}
