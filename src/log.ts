/**
 * One structured line per review or rejected request. Records carry ids, counts and
 * outcomes, never the path token and never object contents.
 */
export interface LogRecord {
  level: "info" | "warn" | "error";
  msg: string;
  [field: string]: unknown;
}

export type Logger = (record: LogRecord) => void;

export const jsonLogger: Logger = (record) => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...record });
  if (record.level === "error") console.error(line);
  else console.log(line);
};

export const silentLogger: Logger = () => {};
