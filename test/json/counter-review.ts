import * as z from "zod";
import { defineKind } from "../../src/conversion";

/**
 * A Counter kind whose `total` (v1) is `count` (v2), a safe integer or a bigint, and a review
 * of one Counter holding `total` in its spec and status, with `extra` (JSON text) appended to its
 * status: what the int64 and nesting-depth tests send.
 */
export function counterKind(group: string) {
  return defineKind({
    group,
    kind: "Counter",
    versions: {
      v1: z.looseObject({ spec: z.looseObject({ total: z.union([z.number(), z.bigint()]).optional() }).optional() }),
      v2: z.looseObject({ spec: z.looseObject({ count: z.union([z.number(), z.bigint()]).optional() }).optional() }),
    },
    converters: {
      v1: { v2: ({ spec, ...rest }) => ({ ...rest, spec: { count: spec?.total } }) },
      v2: { v1: ({ spec, ...rest }) => ({ ...rest, spec: { total: spec?.count } }) },
    },
  });
}

export function counterReview(group: string, total: string, extra = ""): string {
  return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"${group}/v2","objects":[{"apiVersion":"${group}/v1","kind":"Counter","metadata":{"name":"c"},"spec":{"total":${total}},"status":{"big":${total},"list":[${total},1.5,-0,1e+300]${extra}}}]}}\n`;
}
