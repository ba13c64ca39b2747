import { cpuMs, hasSourceTextAccess, INT64_CASES, measureInt64 } from "./int64-measure";

// One runtime's figures, as JSON on stdout: run by bench/int64.ts with another node binary.
// argv[2]: "quick" for fewer reviews and rounds.
const quick = process.argv[2] === "quick";
const rows = await measureInt64(quick ? INT64_CASES.slice(0, 3) : INT64_CASES, quick ? 5 : 15, cpuMs);
process.stdout.write(
  JSON.stringify({ runtime: `Node ${process.version}`, sourceTextAccess: hasSourceTextAccess(), rows }),
);
