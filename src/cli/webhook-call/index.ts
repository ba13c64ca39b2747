export { registrySide, urlSide, type ConversionSide, type SideResult } from "./conversion-side";
export { redactUrl, reviewRequest, type ReviewRequest } from "./review-request";
export { APISERVER_TIMEOUT_MS, tlsErrorText, type Connection, type TlsPeer } from "./post-review";
