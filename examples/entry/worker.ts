import { createWorker } from "crdshift/workers";
import { registry } from "../index";

// The examples on Cloudflare Workers: wrangler.toml builds this module (npm run build:worker).
export default createWorker(registry);
