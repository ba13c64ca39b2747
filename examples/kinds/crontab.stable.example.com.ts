import { defineKind } from "crdshift";
import * as z from "zod/mini";

/**
 * The CronTab of the CRD conversion webhook KEP: v1 keeps the schedule as one string
 * `spec.cronSpec` (five fields separated by spaces), v2 splits it into `min`, `hour`,
 * `dayOfMonth`, `month` and `dayOfWeek`. New fields go onto the `...spec` copy with
 * `Object.assign` (see the docs page's CronTab for why); `...object` followed by `spec`, a field
 * it already has, is as fast as it gets.
 */
const FIELDS = ["min", "hour", "dayOfMonth", "month", "dayOfWeek"] as const;

const text = () => z.optional(z.string());
const v1 = z.looseObject({
  spec: z.optional(z.looseObject({ cronSpec: text(), image: text() })),
});
const v2 = z.looseObject({
  spec: z.optional(
    z.looseObject({ min: text(), hour: text(), dayOfMonth: text(), month: text(), dayOfWeek: text(), image: text() }),
  ),
});

export const cronTabStable = defineKind({
  group: "stable.example.com",
  kind: "CronTab",
  versions: { v1, v2 },
  // Why each converter may refuse an object, by name: `crdshift check` fails on any other throw.
  refusals: {
    "v1->v2": { "not-five-words": "a cronSpec that is not five words cannot be split into v2's five schedule fields" },
    "v2->v1": {
      "fields-missing": "v1's cronSpec needs all five schedule fields",
      "field-not-one-word": "v1's cronSpec holds each schedule field as one word",
    },
  },
  converters: {
    v1: {
      v2: (object, { refuse }) => {
        if (object.spec?.cronSpec === undefined) return object;
        const { cronSpec, ...spec } = object.spec;
        const parts = cronSpec.trim().split(/\s+/);
        if (parts.length !== 5 || parts[0] === "") {
          throw refuse("not-five-words", `invalid spec string, needs five parts: ${cronSpec}`);
        }
        const [min, hour, dayOfMonth, month, dayOfWeek] = parts as [string, string, string, string, string];
        return { ...object, spec: Object.assign(spec, { min, hour, dayOfMonth, month, dayOfWeek }) };
      },
    },
    v2: {
      v1: (object, { refuse }) => {
        const spec = object.spec;
        if (spec === undefined) return object;
        const present = FIELDS.filter((field) => spec[field] !== undefined);
        if (present.length === 0) return object;
        const missing = FIELDS.filter((field) => spec[field] === undefined);
        if (missing.length > 0) {
          throw refuse(
            "fields-missing",
            `spec.${missing.join(", spec.")} missing: all five schedule fields are needed to form spec.cronSpec`,
          );
        }
        for (const field of FIELDS) {
          if (!/^\S+$/.test(spec[field]!)) {
            throw refuse(
              "field-not-one-word",
              `spec.${field} ${JSON.stringify(spec[field])} must be one word, without spaces`,
            );
          }
        }
        const { min, hour, dayOfMonth, month, dayOfWeek, ...rest } = spec;
        return {
          ...object,
          spec: Object.assign(rest, { cronSpec: [min, hour, dayOfMonth, month, dayOfWeek].join(" ") }),
        };
      },
    },
  },
});
