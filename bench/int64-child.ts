import { INT64_CASES, measureInt64 } from "./int64-measure";

// One runtime's figures, as JSON on stdout: run by bench/int64.ts with another node binary.
// argv[2]: "quick" for fewer rounds.
const quick = process.argv[2] === "quick";
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const rows = await measureInt64(INT64_CASES, quick ? 5 : 15, cpu);
process.stdout.write(JSON.stringify({ node: process.version, rows }));
