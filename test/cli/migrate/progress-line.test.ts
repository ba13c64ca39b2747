import { describe, expect, it } from "vitest";
import { progressLine } from "../../../src/cli/migrate/progress-line";

const counts = (rewritten: number) => ({ listed: 5000, rewritten, gone: 1, conflicts: 0, expiredPages: 0 });

describe("migrate's progress line", () => {
  it("is one line redrawn in place on a terminal, at most ten times a second, and erased at the end", () => {
    let written = "";
    let clock = 0;
    const line = progressLine(
      (text) => (written += text),
      true,
      "crontabs.example.com",
      () => clock,
    );
    for (let i = 1; i <= 50; i++) {
      clock += 10;
      line.update(counts(i));
    }
    line.end();
    const draws = written.split("\r\x1b[2K").filter(Boolean);
    expect(draws).toHaveLength(5);
    expect(draws[0]).toBe("crontabs.example.com: 10 rewritten of 5000 listed, 1 deleted meanwhile");
    expect(written.endsWith("\r\x1b[2K")).toBe(true);
    expect(written).not.toContain("\n");
  });

  it("writes a log (not a terminal) a whole line at most every 10 s, none for a short migration", () => {
    let written = "";
    let clock = 0;
    const line = progressLine(
      (text) => (written += text),
      false,
      "crontabs.example.com",
      () => clock,
    );
    line.update(counts(1));
    expect(written).toBe("");
    for (let i = 2; i <= 3_000; i++) {
      clock += 10;
      line.update(counts(i));
    }
    line.end();
    expect(written.split("\n").filter(Boolean)).toEqual([
      "crontabs.example.com: 1001 rewritten of 5000 listed, 1 deleted meanwhile",
      "crontabs.example.com: 2001 rewritten of 5000 listed, 1 deleted meanwhile",
    ]);
    expect(written).not.toContain("\r");
  });

  it("escapes a CRD name from the cluster, so it cannot rewrite the terminal", () => {
    let written = "";
    let clock = 0;
    const line = progressLine(
      (text) => (written += text),
      false,
      "evil\x1b]0;owned\x07\n.example.com",
      () => clock,
    );
    clock += 20_000;
    line.update(counts(1));
    expect(written).toBe("evil\\x1b]0;owned\\x07\\n.example.com: 1 rewritten of 5000 listed, 1 deleted meanwhile\n");
  });
});
