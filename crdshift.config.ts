// Where the `crdshift` command finds this repository's registry (the examples), and the CRDs
// `crdshift check` holds it to (paths relative to this file).
export { registry } from "./examples";
export const crds = ["examples/crds/crontabs.example.com.yaml", "examples/crds/crontabs.stable.example.com.yaml"];
