import { createWorker } from "crdshift/workers";
import { registry } from "..";

// The examples on Cloudflare Workers: wrangler.toml builds this module (npm run build:worker),
// and splits the CloudWatch SDK into modules of its own, loaded only with CRDSHIFT_METRICS=cloudwatch.
export default createWorker(registry, { loadCloudWatchSdk: () => import("@aws-sdk/client-cloudwatch") });
