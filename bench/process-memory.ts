import { readdirSync, readFileSync, writeFileSync } from "node:fs";

/**
 * A process's resident memory as Linux reports it, in bytes: now (VmRSS) and its peak (VmHWM)
 * since it started or since `resetPeak`. The peak is the kernel's, so no sample can miss it.
 */
export function residentBytes(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { now: field("VmRSS"), peak: field("VmHWM") };
}

/** Starts the peak over from the current resident size (Linux's clear_refs, value 5). */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** The processes under `parent` (children, grandchildren…) whose command name is `name`. */
export function descendantsNamed(parent: number, name: string): number[] {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split at the last ")".
      const close = stat.lastIndexOf(")");
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      names.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (names.get(child) === name) found.push(child);
      visit(child);
    }
  };
  visit(parent);
  return found;
}

export const MiB = 2 ** 20;
