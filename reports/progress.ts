import type { Paint } from './colour.js';

// Progress while a run lasts: requirements checked out of those the run's checks name, and how
// many failed or were blocked so far. On a terminal one line is rewritten in place; elsewhere (CI
// logs, pipes) one line per suite file is printed. A requirement is checked when every check
// naming it finished. When the run stops (a signal, the deadline, a silent target), the progress
// says so once and stops counting: the checks that end afterwards did not run.

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export type CheckOutcome = 'passed' | 'failed' | 'blocked' | 'skipped';

export class Progress {
  private readonly remaining = new Map<string, number>();
  private readonly failed = new Set<string>();
  private readonly blocked = new Set<string>();
  private done = 0;
  private lastDraw = 0;
  private drawn = false;
  private stoppedBecause: string | undefined;

  /** `expected`: how many checks name each requirement (from the suites' registrations); else learnt as files are collected. */
  constructor(private readonly out: ProgressStream, private readonly p: Paint, private readonly expected?: ReadonlyMap<string, number>) {
    for (const [id, n] of expected ?? []) this.remaining.set(id, n);
  }

  get total(): number {
    return this.remaining.size;
  }

  /** A suite file's checks are known (only counted when no registrations were given). */
  collected(checks: readonly (readonly string[])[]): void {
    if (this.expected) return;
    for (const ids of checks) for (const id of ids) this.remaining.set(id, (this.remaining.get(id) ?? 0) + 1);
  }

  /** `outcome`: the check's outcome for each of its requirements (a failure may concern only some of them). */
  checkFinished(ids: readonly string[], outcome: CheckOutcome | ((id: string) => CheckOutcome)): void {
    if (this.stoppedBecause !== undefined) return;
    for (const id of ids) {
      const left = this.remaining.get(id);
      if (left === undefined) continue;
      const o = typeof outcome === 'function' ? outcome(id) : outcome;
      if (o === 'failed') this.failed.add(id);
      if (o === 'blocked') this.blocked.add(id);
      this.remaining.set(id, left - 1);
      if (left === 1) this.done += 1;
    }
    if (this.out.isTTY) this.draw(false);
  }

  fileFinished(file: string): void {
    if (this.stoppedBecause !== undefined) return;
    if (this.out.isTTY) return this.draw(true);
    this.out.write(`${this.line(file)}\n`);
  }

  /** The run stopped: said once, and nothing counts after it. */
  stop(why: string): void {
    if (this.stoppedBecause !== undefined) return;
    this.stoppedBecause = why;
    this.clear();
    this.out.write(`${this.line()}\n`);
  }

  /** Removes the in-place line before the summary is printed. */
  clear(): void {
    if (this.drawn) this.out.write('\r\u001b[K');
    this.drawn = false;
  }

  line(file?: string): string {
    const p = this.p;
    const parts = [`${this.done}/${this.total} requirements checked`];
    if (this.failed.size) parts.push(p.red(`${this.failed.size} failed`));
    const blocked = [...this.blocked].filter((id) => !this.failed.has(id)).length; // a failure elsewhere outweighs a block
    if (blocked) parts.push(p.yellow(`${blocked} blocked`));
    if (this.stoppedBecause !== undefined) parts.push(p.yellow(`stopped: ${this.stoppedBecause}`));
    return `${p.dim('conformance')} ${parts.join(' · ')}${file ? p.dim(`  (${file} finished)`) : ''}`;
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.drawn = true;
    this.out.write(`\r\u001b[K${this.line()}`);
  }
}
