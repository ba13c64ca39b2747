import type { MetricPoint, Unit } from "./metrics";

/** PutMetricData's limits (API_PutMetricData, API_MetricDatum). */
export const LIMITS = {
  valuesPerDatum: 150,
  datumsPerCall: 1000,
  /** The API takes 1 MB per call; stay well below it by estimate. */
  bytesPerCall: 512 * 1024,
} as const;

/** A MetricDatum as PutMetricData takes it (the SDK's shape, kept local so it stays lazy). */
export interface Datum {
  MetricName: string;
  Unit: Unit;
  Dimensions: { Name: string; Value: string }[];
  Values: number[];
  Counts: number[];
  Timestamp: Date;
}

interface Series {
  name: string;
  unit: Unit;
  dimensions: { Name: string; Value: string }[];
  /** value -> how many times: equal values travel once with a count. */
  values: Map<number, number>;
}

/**
 * Points gathered between two PutMetricData calls, as value/count arrays per metric and
 * dimension set. Bounded: past `maxValues` distinct values (CloudWatch down for long) new ones
 * are dropped and counted, so an outage costs metrics, never memory.
 */
export class MetricBatch {
  private series = new Map<string, Series>();
  private distinct = 0;
  dropped = 0;

  constructor(private readonly maxValues = 20_000) {}

  get size(): number {
    return this.distinct;
  }

  add(point: MetricPoint): void {
    for (const set of point.sets) {
      let key = point.name;
      for (const name of set) key += `\u0000${name}=${point.dimensions[name]}`;
      let series = this.series.get(key);
      if (!series) {
        series = {
          name: point.name,
          unit: point.unit,
          dimensions: set.map((name) => ({ Name: name, Value: point.dimensions[name]! })),
          values: new Map(),
        };
        this.series.set(key, series);
      }
      const count = series.values.get(point.value);
      if (count !== undefined) series.values.set(point.value, count + 1);
      else if (this.distinct >= this.maxValues) this.dropped++;
      else {
        series.values.set(point.value, 1);
        this.distinct++;
      }
    }
  }

  /** Empties the batch into PutMetricData calls (each a MetricData array within the limits). */
  take(timestamp: Date): Datum[][] {
    const calls: Datum[][] = [];
    let call: Datum[] = [];
    let bytes = 0;
    for (const series of this.series.values()) {
      const entries = [...series.values];
      for (let start = 0; start < entries.length; start += LIMITS.valuesPerDatum) {
        const chunk = entries.slice(start, start + LIMITS.valuesPerDatum);
        const datum: Datum = {
          MetricName: series.name,
          Unit: series.unit,
          Dimensions: series.dimensions,
          Values: chunk.map(([value]) => value),
          Counts: chunk.map(([, count]) => count),
          Timestamp: timestamp,
        };
        const size = estimate(datum);
        if (call.length > 0 && (call.length === LIMITS.datumsPerCall || bytes + size > LIMITS.bytesPerCall)) {
          calls.push(call);
          call = [];
          bytes = 0;
        }
        call.push(datum);
        bytes += size;
      }
    }
    if (call.length > 0) calls.push(call);
    this.series.clear();
    this.distinct = 0;
    return calls;
  }
}

function estimate(datum: Datum): number {
  let bytes = 120 + datum.MetricName.length;
  for (const d of datum.Dimensions) bytes += 30 + d.Name.length + d.Value.length;
  return bytes + datum.Values.length * 32;
}
