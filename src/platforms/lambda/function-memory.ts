/**
 * What a Lambda instance has for reviews to hold at once: the memory the function is given
 * (`AWS_LAMBDA_FUNCTION_MEMORY_SIZE`, MiB, set by Lambda) less what the runtime, the bundle and
 * V8's slack take before a review holds anything. Lambda ends an invocation that passes the
 * function's memory, so a function given 128 or 256 MB must admit less than a server's default
 * (a dense body of under 2 MiB holds more than 128 MiB); one given more may admit more, one
 * invocation at a time. Undefined outside Lambda: the server's default applies.
 */
export function functionMemoryCap(env: Record<string, string | undefined>): number | undefined {
  const mib = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  if (!Number.isSafeInteger(mib) || mib <= 0) return undefined;
  // config.ts raises a cap below what the largest body holds at least to that least.
  return Math.max(0, (mib - RUNTIME_MIB) * 1024 * 1024);
}

/** Resident before a review, with room for V8's heap to grow past what a review holds. */
const RUNTIME_MIB = 128;
