/** crdshift/workers: the Cloudflare Worker. */
export * from "./workers";
