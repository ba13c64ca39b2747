import { describe, expect, it } from "vitest";
import { createJsonLogger } from "../src/log";

describe("the JSON logger", () => {
  it("writes each record as one JSON line, its time first, every field kept and escaped", () => {
    const lines: string[] = [];
    const log = createJsonLogger((line) => lines.push(line));
    log({ level: "warn", msg: 'a "quoted"\nmessage', count: 2, nested: { kinds: ["A.b"] } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("\n");
    const parsed = JSON.parse(lines[0]!);
    expect(Object.keys(parsed)).toEqual(["time", "level", "msg", "count", "nested"]);
    expect(new Date(parsed.time).toISOString()).toBe(parsed.time);
    expect(parsed).toMatchObject({ level: "warn", msg: 'a "quoted"\nmessage', count: 2, nested: { kinds: ["A.b"] } });
  });
});
