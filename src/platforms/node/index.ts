/** crdshift/node: a Node HTTP server for the webhook. */
export * from "./node";
