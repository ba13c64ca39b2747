import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The Node.js of the Lambda runtime the CDK construct deploys (nodejs22.x), for running the
 * built Lambda bundle on the major it will meet in production while this machine runs Node 20.
 * It comes from the npm registry as the `node-<platform>-<arch>` package, pinned here, and is
 * kept under node_modules/.cache, so a machine with Node 20 and npm needs nothing else.
 */
export const LAMBDA_NODE_VERSION = "22.23.3";

const CACHE = fileURLToPath(
  new URL(`../../node_modules/.cache/crdshift-lambda-node/${LAMBDA_NODE_VERSION}`, import.meta.url),
);

/** The path of that node binary, fetched on first use. */
export function lambdaRuntimeNode(): string {
  const binary = join(CACHE, "bin", "node");
  if (existsSync(binary)) return binary;
  const packageName = `node-${process.platform}-${process.arch}@${LAMBDA_NODE_VERSION}`;
  const work = mkdtempSync(join(tmpdir(), "crdshift-lambda-node-"));
  try {
    // npm checks the tarball against the registry's integrity hash. stdout only: npm may warn on stderr.
    const tarball = execFileSync("npm", ["pack", packageName, "--pack-destination", work, "--silent"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .trim()
      .split("\n")
      .pop()!;
    execFileSync("tar", ["-xzf", join(work, tarball), "-C", work, "package/bin/node"]);
    chmodSync(join(work, "package", "bin", "node"), 0o755);
    mkdirSync(join(CACHE, "bin"), { recursive: true });
    // A rename, so a concurrent or interrupted run never sees half a binary.
    renameSync(join(work, "package", "bin", "node"), binary);
  } catch (error) {
    throw new Error(
      `could not fetch Node ${LAMBDA_NODE_VERSION} (${packageName}) from the npm registry for the Lambda runtime's tests: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}
