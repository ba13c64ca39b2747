import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_CERT } from "./test-certificate";

/** A kubeconfig in a new temporary folder whose only context points at `server`, trusting the test CA. */
export function writeKubeconfig(server: string): string {
  const dir = mkdtempSync(join(tmpdir(), "crdshift-migrate-"));
  const file = join(dir, "kubeconfig");
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
  - name: stand-in
    cluster:
      server: ${server}
      certificate-authority-data: ${Buffer.from(TEST_CERT).toString("base64")}
users:
  - name: migrator
    user:
      token: stand-in-token
contexts:
  - name: stand-in
    context: { cluster: stand-in, user: migrator }
current-context: stand-in
`,
  );
  return file;
}
