// CPU time of a process from /proc (Linux): user + system time, in milliseconds, so a
// benchmark can divide a server's CPU by the requests it answered. Undefined elsewhere.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim();
    ticksPerSecond = Number(out) > 0 ? Number(out) : 100;
  }
  return ticksPerSecond;
}

/** utime + stime of `pid` so far, in ms (resolution: one clock tick, usually 10 ms). */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is parenthesised and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // fields 14 and 15 of proc(5)
    return (ticks * 1000) / clockTicks();
  } catch {
    return undefined;
  }
}

/** The PIDs of this process's direct children whose command line contains `needle`. */
export function childPidsMatching(needle: string): number[] {
  const pids: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${process.pid}/task`)) {
      const children = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim();
      for (const pid of children ? children.split(' ').map(Number) : []) {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        if (cmdline.includes(needle)) pids.push(pid);
      }
    }
  } catch {
    // no /proc: CPU figures are left out
  }
  return pids;
}
