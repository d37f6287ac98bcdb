// Types of build/run.mjs for the TypeScript modules that import it.
/** Why dist/ must be rebuilt, or undefined when it is up to date. */
export function staleReason(): string | undefined;
/** The path of dist/<entry>.js, built or rebuilt first when stale. */
export function builtEntry(entry: string): Promise<string>;
