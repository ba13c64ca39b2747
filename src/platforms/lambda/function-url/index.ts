export { type FunctionUrlBindings, type FunctionUrlEvent, type FunctionUrlResult, type LambdaContext } from "./event";
export { installLightResponse } from "./global-response";
export { handleFunctionUrl } from "./handle";
