/** Resident memory of a process, sampled over time, and whether it keeps growing. */
import { readFileSync } from 'node:fs';

/** VmRSS of a process in MB (NaN once it is gone). */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Least-squares slope of y over x (NaN with fewer than two points). */
export function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx ? sxy / sxx : NaN;
}

/** Samples the RSS of named processes: points are [minutes since `since`, MB]. */
export function rssSampler(pids: Record<string, number>, since: number) {
  const samples = new Map<string, Array<[number, number]>>(Object.keys(pids).map((name) => [name, []]));
  return {
    samples,
    sample() {
      const minutes = (Date.now() - since) / 60_000;
      for (const [name, pid] of Object.entries(pids)) samples.get(name)!.push([minutes, rssMb(pid)]);
    },
  };
}
