/**
 * The Prometheus sink, a face of its own: only the Node platform imports it, so the Workers and
 * Lambda bundles never hold prom-client.
 */
export { createPrometheusMetrics, type PrometheusMetrics } from "./prometheus";
