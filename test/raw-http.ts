import { connect, type Socket } from "node:net";

/**
 * One TCP connection to 127.0.0.1:`port`, written to by hand, for what a client library hides:
 * several requests on one kept-alive connection, a body cut short, a client that leaves.
 */
export interface RawConnection {
  socket: Socket;
  write(data: string | Buffer): void;
  /** The statuses of the responses received so far, in order. */
  statuses(): number[];
  /** Resolves once `count` responses have arrived, or rejects if the connection closes first. */
  responses(count: number): Promise<number[]>;
  /** Everything received so far, as text. */
  received(): string;
  closed(): boolean;
}

export async function rawConnection(port: number): Promise<RawConnection> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let text = "";
  let isClosed = false;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  socket.on("data", (chunk: Buffer) => ((text += chunk.toString("latin1")), wake()));
  socket.on("close", () => ((isClosed = true), wake()));
  socket.on("error", () => {});
  const statuses = () => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  return {
    socket,
    write: (data) => void socket.write(data),
    statuses,
    received: () => text,
    closed: () => isClosed,
    responses: (count) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (statuses().length >= count) resolve(statuses());
          else if (isClosed) reject(new Error(`the connection closed after ${statuses().length} responses: ${text}`));
          else waiters.push(check);
        };
        check();
      }),
  };
}

/** A request's bytes: its head with a Content-Length, then its body. */
export function httpRequest(method: string, path: string, body: string, headers: Record<string, string> = {}): string {
  const lines = Object.entries({ Host: "127.0.0.1", ...headers, "Content-Length": String(Buffer.byteLength(body)) });
  return `${method} ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n${body}`;
}
