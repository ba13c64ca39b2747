/**
 * The structure the CloudWatch Embedded Metric Format specification requires of a log line,
 * checked rule by rule; returns what is wrong, or [] when CloudWatch Logs would extract it.
 */
export function emfProblems(line: string): string[] {
  const problems: string[] = [];
  let root: any;
  try {
    root = JSON.parse(line);
  } catch {
    return ["the line is not one JSON document (nothing may precede or follow it)"];
  }
  if (typeof root !== "object" || root === null || Array.isArray(root)) return ["the root is not an object"];
  const aws = root._aws;
  if (typeof aws !== "object" || aws === null) return ["no _aws metadata object"];
  if (!Number.isInteger(aws.Timestamp)) problems.push("_aws.Timestamp is not an integer of epoch milliseconds");
  else if (Math.abs(Date.now() - aws.Timestamp) > 2 * 3600_000)
    problems.push("_aws.Timestamp is not within two hours of now");
  if (!Array.isArray(aws.CloudWatchMetrics)) return [...problems, "_aws.CloudWatchMetrics is not an array"];
  for (const [i, directive] of aws.CloudWatchMetrics.entries()) {
    const where = `CloudWatchMetrics[${i}]`;
    if (
      typeof directive.Namespace !== "string" ||
      directive.Namespace.length === 0 ||
      directive.Namespace.length > 1024
    ) {
      problems.push(`${where}.Namespace is not a non-empty string`);
    }
    if (!Array.isArray(directive.Dimensions)) problems.push(`${where}.Dimensions is not an array`);
    else {
      for (const set of directive.Dimensions) {
        if (!Array.isArray(set) || set.length > 30)
          problems.push(`${where} has a dimension set that is not an array of at most 30 keys`);
        else {
          for (const key of set) {
            const value = root[key];
            if (typeof value !== "string")
              problems.push(`${where}: dimension ${key} is not a string member of the root`);
            // CloudWatch's rule for a dimension value (API_Dimension): 1 to 1,024 ASCII characters.
            // eslint-disable-next-line no-control-regex -- the ASCII range, control characters included
            else if (!/^[\x00-\x7f]{1,1024}$/.test(value))
              problems.push(`${where}: dimension ${key} is not 1 to 1,024 ASCII characters`);
          }
        }
      }
    }
    if (!Array.isArray(directive.Metrics) || directive.Metrics.length > 100)
      problems.push(`${where}.Metrics is not an array of at most 100`);
    else {
      for (const metric of directive.Metrics) {
        if (typeof metric.Name !== "string" || metric.Name.length === 0)
          problems.push(`${where}: a metric has no Name`);
        const value = root[metric.Name];
        const numbers = Array.isArray(value) ? value : [value];
        if (numbers.length > 100 || !numbers.every((n) => typeof n === "number" && Number.isFinite(n))) {
          problems.push(`${where}: metric ${metric.Name} has no number (or array of at most 100 numbers) in the root`);
        }
      }
    }
  }
  return problems;
}
