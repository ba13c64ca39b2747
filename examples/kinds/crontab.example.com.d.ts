/**
 * The CronTab of the Kubernetes docs page "Versions in CustomResourceDefinitions":
 * v1alpha1 says `endpoint: "host:port"`, v1beta1 renames it `hostPort`, v1 splits it into
 * `host` and `port`. Converters exist only between neighbours, so v1alpha1 <-> v1 takes two
 * steps. Every field is optional: partial objects (server-side apply fragments) convert too.
 * v1 adds `protocol`, which the older versions lack: it waits in an annotation while the object
 * is read as v1beta1 or v1alpha1, and comes back when it is written as v1 again.
 */
export declare const cronTabExample: import("crdshift").KindDefinition;
