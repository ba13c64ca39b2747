/**
 * The CloudWatch SDK where it can be imported at run time (Node, and Lambda, whose runtime ships
 * it). It is an optional peer dependency: the `.catch` right on the import tells bundlers to
 * leave it unresolved when it is not installed, and names the package when it is needed.
 */
export const importCloudWatchSdk = (): Promise<unknown> =>
  import("@aws-sdk/client-cloudwatch").catch((error: unknown) => {
    throw new Error(
      `CRDSHIFT_METRICS=cloudwatch needs the package @aws-sdk/client-cloudwatch (npm install @aws-sdk/client-cloudwatch): ${(error as Error).message}`,
    );
  });
