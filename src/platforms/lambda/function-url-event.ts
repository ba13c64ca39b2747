/**
 * What Lambda hands a function URL handler and takes back (payload format 2.0, BUFFERED), as AWS
 * documents it: types only, so that a declaration of the handler's type loads nothing else.
 */
export interface FunctionUrlEvent {
  version?: string;
  rawPath: string;
  rawQueryString?: string;
  headers?: Record<string, string | undefined>;
  cookies?: string[];
  requestContext: { domainName?: string; http: { method: string; sourceIp?: string } };
  body?: string;
  isBase64Encoded?: boolean;
}

export interface FunctionUrlResult {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

/** What Lambda passes as the handler's second argument; only the clock is used here. */
export interface LambdaContext {
  getRemainingTimeInMillis(): number;
}

/** What the app finds in `c.env`: the event, its requestContext and the invocation context. */
export interface FunctionUrlBindings {
  event: FunctionUrlEvent;
  requestContext: FunctionUrlEvent["requestContext"];
  lambdaContext: LambdaContext;
}
