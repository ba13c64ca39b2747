/** The embedded default: both seed examples, served from one URL. Replace with your kinds. */
export declare const registry: import("crdshift").Registry;
