// YAML and JSON manifests, for the CLI and the test kit. A face of its own, not re-exported by
// kube's: everything that imports kube (the webhook's bundles among it) would load the YAML parser.
export { ManifestError, parseManifests } from "./manifests";
