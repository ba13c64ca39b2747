import { serve } from "crdshift/node";
import { registry } from "..";

// `npm start`: the examples on http://127.0.0.1:8787 (PORT, HOST and CRDSHIFT_* from the environment).
const { listening } = serve(registry);
listening.then(
  ({ url }) =>
    console.log(`\nTry it: curl -s -H 'Content-Type: application/json' --data @examples/requests/docs-v1.json ${url}`),
  // An address that cannot be bound is one logged line and exit code 1 already: no stack trace after it.
  () => {},
);
