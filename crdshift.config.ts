// Where the `crdshift` command finds this repository's registry: the examples.
export { registry } from "./examples";
