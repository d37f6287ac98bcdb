// Types of build/run.mjs for the TypeScript modules that import it.
/** Why dist/ must be rebuilt, or undefined when it is up to date. */
export function staleReason(): string | undefined;
/** The harness as built in dist/harness/ (rebuilt first when stale): absolute source path → absolute built module. */
export function builtHarness(): Promise<Map<string, string>>;
/** The path of an entry's file in dist/, built or rebuilt first when stale. */
export function builtEntry(entry: string): Promise<string>;
/** Runs an entry of dist/ with `args` as its command-line arguments. */
export function runEntry(entry: string, args: string[]): Promise<void>;
