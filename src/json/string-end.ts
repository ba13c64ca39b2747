/**
 * Where the JSON string opened by the quote at `open` closes: the index of the next quote not
 * escaped by an odd run of backslashes, or -1 if none. Shared by the passes that read a body's
 * text before (or instead of) parsing it.
 */
export function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end >= 0) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === 92 /* \ */) slashes++;
    if ((slashes & 1) === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}
