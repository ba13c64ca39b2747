/** The time a review may take: the engine gives up before it rather than be killed mid-way. */
export interface TimeBudget {
  /** The instant to give up at, in `now()` units (ms). */
  deadline: number;
  /** What the deadline stands for, for the message: the budget in ms. */
  budgetMs?: number;
  now?: () => number;
}

/** What a promise raced against the deadline rejects with when the deadline comes first. */
export const DEADLINE_PASSED = Symbol("deadline passed");

export function pastDeadline(budget: TimeBudget | undefined): boolean {
  return budget !== undefined && (budget.now ?? Date.now)() > budget.deadline;
}

/** The promise, unless the deadline comes first: then a rejection with DEADLINE_PASSED. */
export function withDeadline<T>(promise: Promise<T>, budget: TimeBudget | undefined): Promise<T> {
  if (budget === undefined) return promise;
  const now = budget.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(DEADLINE_PASSED), Math.max(0, budget.deadline - now()));
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
