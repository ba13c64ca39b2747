/** What is wrong with a definition, and, when the message says it, how to fix it (`fix`, after a dash). */
export class DefinitionError extends Error {
  override name = "DefinitionError";

  constructor(
    problem: string,
    readonly fix?: string,
  ) {
    super(fix === undefined ? problem : `${problem} — ${fix}`);
  }
}
