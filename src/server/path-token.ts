import { TOKEN_LENGTH } from "./config";

/**
 * Whether a request's path token is one of the accepted ones, in time that tells nothing about
 * them: every accepted token is compared, every character of the given one against each, with no
 * early exit. The time depends on the given token's length (the caller's own) and on how many
 * tokens are accepted, never on their contents or lengths: each is padded once, when the check is
 * built, with NULs at its end to the longest length a token may have, so no read falls past its
 * end, and a given token longer than that is refused on its length alone. Plain comparison, no
 * hash: a hash per request cost more CPU than the rest of a request's checks together (and a
 * promise on Workers), and hides nothing more: tokens are 16 to 256 random characters (config.ts).
 */
export function createTokenCheck(tokens: readonly string[]): (given: string | undefined) => boolean {
  if (tokens.length === 0) return (given) => given === undefined;
  for (const token of tokens) {
    if (token.length === 0 || token.length > TOKEN_LENGTH.max)
      throw new RangeError(`a path token must be 1 to ${TOKEN_LENGTH.max} characters (readConfig checks it)`);
  }
  const padded = tokens.map((token) => flat(token.padEnd(TOKEN_LENGTH.max, "\0")));
  const lengths = tokens.map((token) => token.length);
  return (given) => {
    if (given === undefined || given.length > TOKEN_LENGTH.max) return false;
    let matched = 0;
    for (let t = 0; t < padded.length; t++) {
      const token = padded[t]!;
      // A NUL the given token may hold (a percent-decoded %00) meets the padding: the lengths differ then.
      let difference = given.length ^ lengths[t]!;
      for (let i = 0; i < given.length; i++) difference |= given.charCodeAt(i) ^ token.charCodeAt(i);
      matched |= difference === 0 ? 1 : 0;
    }
    return matched === 1;
  };
}

/** The string, its characters in one piece now (V8 would join a padded string on its first read). */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}
