import { readFileSync } from "node:fs";

const fixtures = new URL("../../fixtures/tls/", import.meta.url);
/** The self-signed test certificate for 127.0.0.1 (test/fixtures/tls/README.md) and its key. */
export const TEST_CERT = readFileSync(new URL("localhost.crt", fixtures), "utf8");
export const TEST_KEY = readFileSync(new URL("localhost.key", fixtures), "utf8");
