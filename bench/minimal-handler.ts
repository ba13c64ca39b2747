// The least a function URL handler can be: a fixed 200. Bundled as the Lambda bundle is
// (npm run build:bench), it is the cold start's baseline: node, the runtime host, one import,
// one invocation, and nothing of crdshift.
export const handler = async () => ({
  statusCode: 200,
  headers: { "content-type": "application/json" },
  body: '{"status":"Success"}',
  isBase64Encoded: false,
});
