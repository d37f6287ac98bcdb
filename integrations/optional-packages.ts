// Packages only some targets need, optional peer dependencies of the installed package
// (package.json peerDependenciesMeta): the project's clone has them (devDependencies); where the
// package is installed, a user adds them beside it for the target that needs them. A run that
// needs one that is missing is a misconfiguration, reported before it starts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Settings } from '../contract/settings.js';

const require = createRequire(import.meta.url);

/** Each optional package, and whether the run's settings need it. */
const OPTIONAL_PACKAGES = [
  { name: 'testcontainers', neededBy: (s: Settings) => (s.image ? 'CONFORMANCE_IMAGE (--image)' : undefined) },
  {
    name: '@stoplight/prism-cli',
    neededBy: (s: Settings) =>
      s.viaPrism ? 'CONFORMANCE_VIA_PRISM (--via-prism)' : s.target === 'prism-mock' ? 'CONFORMANCE_TARGET=prism-mock (--target prism-mock)' : undefined,
  },
] as const;

function installed(name: string): boolean {
  try {
    require.resolve(`${name}/package.json`);
  } catch (e) {
    // A package whose "exports" hides its package.json is there all the same.
    return (e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND';
  }
  return true;
}

/** The version the package was tested with (package.json peerDependencies). */
function testedVersion(name: string): string | undefined {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { peerDependencies?: Record<string, string>; };
  return pkg.peerDependencies?.[name];
}

/** Why the run cannot start for a missing optional package, or undefined when none is missing. */
export function missingPackage(settings: Settings): string | undefined {
  for (const { name, neededBy } of OPTIONAL_PACKAGES) {
    const setting = neededBy(settings);
    if (setting && !installed(name)) {
      const version = testedVersion(name);
      return `${setting} needs the package ${name}, which is not installed: npm install ${name}${version ? `@${version}` : ''}`;
    }
  }
  return undefined;
}
