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

/** JSON lines to `write`; by default the console, which every platform collects. */
export function createJsonLogger(write?: (line: string, record: LogRecord) => void): Logger {
  return (record) => {
    // The time first, without copying the record: records always hold level and msg.
    const line = `{"time":"${new Date().toISOString()}",${JSON.stringify(record).slice(1)}`;
    if (write) write(line, record);
    else if (record.level === "error") console.error(line);
    else console.log(line);
  };
}

export const jsonLogger: Logger = createJsonLogger();

export const silentLogger: Logger = () => {};
