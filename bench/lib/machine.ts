/** How busy the machine is, so a noisy run can be recognised in the results. */
import { cpus, loadavg } from "node:os";

function totals() {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

/** Percentage of all cores busy over `ms` (while the benchmark itself is idle, that is other work). */
export async function busyPercent(ms = 1_000): Promise<number> {
  const a = totals();
  await new Promise((r) => setTimeout(r, ms));
  const b = totals();
  const total = b.total - a.total;
  return total > 0 ? Math.round((100 * (total - (b.idle - a.idle))) / total) : 0;
}

export const load1 = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;
