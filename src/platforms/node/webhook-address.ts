import { isIP } from "node:net";
import { ConfigError } from "../../server";

/** Where the webhook listens, and how to name where that came from in a configuration error. */
export interface WebhookAddress {
  port: number;
  hostname: string;
  /** E.g. `HOST "0.0.0.0", PORT "8080"`: the settings as given, for a message. */
  setting: string;
}

const DEFAULT_PORT = 8787;
const DEFAULT_HOST = "127.0.0.1";
// A DNS name's shape only: whether it resolves, and to this host, only listening can tell.
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?$/;

/**
 * The webhook's port and address: serve()'s options, else PORT and HOST, else 8787 on loopback.
 * A value that cannot be a port or an address is a ConfigError at once. An empty one is too,
 * unlike an empty CRDSHIFT_*: Node would read an empty HOST as every interface and an empty PORT
 * as any free port, neither what an empty variable means.
 */
export function readWebhookAddress(
  options: { port?: number; hostname?: string },
  env: Readonly<Record<string, string | undefined>>,
): WebhookAddress {
  const port = readPort(options.port, env.PORT);
  const hostname = readHost(options.hostname, env.HOST);
  return { port: port.value, hostname: hostname.value, setting: `${hostname.setting}, ${port.setting}` };
}

function readPort(option: number | undefined, variable: string | undefined): { value: number; setting: string } {
  if (option !== undefined) {
    if (!Number.isInteger(option) || option < 0 || option > 65_535)
      throw new ConfigError(`serve()'s port must be a whole number from 0 to 65535; got ${String(option)}`);
    return { value: option, setting: `serve()'s port ${option}` };
  }
  if (variable === undefined) return { value: DEFAULT_PORT, setting: `PORT unset (${DEFAULT_PORT})` };
  const text = variable.trim();
  const value = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value <= 65_535))
    throw new ConfigError(
      `PORT must be a whole number from 0 to 65535 (0: any free port); got ${JSON.stringify(variable)}`,
    );
  return { value, setting: `PORT ${JSON.stringify(variable)}` };
}

function readHost(option: string | undefined, variable: string | undefined): { value: string; setting: string } {
  const [name, given] = option !== undefined ? ["serve()'s hostname", option] : ["HOST", variable];
  if (given === undefined) return { value: DEFAULT_HOST, setting: `HOST unset (${DEFAULT_HOST})` };
  const text = given.trim();
  if (isIP(text) === 0 && !HOST_NAME.test(text))
    throw new ConfigError(
      `${name} must be an IP address or a host name, e.g. 127.0.0.1, 0.0.0.0 or :: (IPv6, without brackets); got ${JSON.stringify(given)}`,
    );
  return { value: text, setting: `${name} ${JSON.stringify(given)}` };
}
