// Types of build/package.mjs for the TypeScript modules that import it.
/** The files of the package, relative to the project, sorted, as package.json "files" selects them. */
export function packageFiles(root?: string): string[];
/** The folders under node_modules/ of the package's production dependencies, as installed here. */
export function productionPackages(root?: string): string[];
/** The lockfile of a project named `name` that installs the package at the versions this one is tested with. */
export function installerLock(name: string, root?: string): { name: string; lockfileVersion: 3; requires: true; packages: Record<string, unknown>; };
