// Apart from kube/index.ts: what the apiserver does with a reply is read by the shadow, the CLI
// and the test kit, never on the webhook's own path, so the Worker's eager bundle leaves it out.
export { checkReply, type ApiserverVerdict, type SentReview } from "./apiserver-checks";
