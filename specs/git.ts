// Reading a file as it was at a git revision, for the change checkers of the document
// (specs/document/) and of OpenAPI descriptions (specs/diff/); each maps the failure to its own code.
import { execFileSync } from 'node:child_process';

export class GitReadError extends Error {}

/** `git <args>` in `cwd`; a failure is a GitReadError whose message is git's first line, after `label`. */
export function git(args: string[], cwd: string, label: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown; }).stderr ?? error).trim().split('\n')[0];
    throw new GitReadError(`cannot read ${label}: ${stderr}`);
  }
}
