import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ConfigError } from "../../server";

/**
 * Listens on `port` at `hostname`. An address the server cannot bind (in use, not this host's, a
 * name that does not resolve) is a configuration error naming `setting`, given to `refused` and
 * rejected with: without this the server's 'error' event has no listener and crashes the process
 * with a stack instead of one line.
 */
export function listenAt(
  server: Server,
  port: number,
  hostname: string | undefined,
  setting: string,
  refused: (why: ConfigError) => void,
): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = new ConfigError(`${setting}: cannot listen there (${error.code ?? error.message})`);
      refused(why);
      reject(why);
    };
    server.once("error", onError);
    server.listen(port, hostname, () => {
      // Once listening, an error is no longer about the address.
      server.off("error", onError);
      resolve(server.address() as AddressInfo);
    });
  });
}
