import { createWorker } from "crdshift/workers";
import { registry } from "./registry.js";

export default createWorker(registry);
