import { readFileSync } from 'node:fs';
import { specVersion } from '../specs/version.js';
import { didYouMean, err, EXIT_USAGE, out, wantsHelp } from './args.js';

// The command line: `conformance <command> [options]`. Each command lives in
// bin/commands/<name>.ts and exports run<Name>(argv) and its help text; commands are
// loaded on demand so that one command's dependencies never slow another down.

interface Command {
  summary: string;
  load(): Promise<{ run(argv: string[]): Promise<number>; help: string; }>;
}

export const commands: Record<string, Command> = {
  run: {
    summary: 'run the conformance suites against a target and write the reports',
    load: async () => {
      const m = await import('./commands/run.js');
      return { run: m.runRun, help: m.runHelp };
    },
  },
  mock: {
    summary: 'start the bundled reference mock',
    load: async () => {
      const m = await import('./commands/mock.js');
      return { run: m.runMock, help: m.mockHelp };
    },
  },
  requirements: {
    summary: 'list the requirement catalog and the checks covering each requirement',
    load: async () => {
      const m = await import('./commands/requirements.js');
      return { run: m.runRequirements, help: m.requirementsHelp };
    },
  },
  report: {
    summary: 'report diff <a.json> <b.json>: requirements whose status changed between two runs',
    load: async () => {
      const m = await import('./commands/report.js');
      return { run: m.runReport, help: m.reportHelp };
    },
  },
  diff: {
    summary: 'compare two OpenAPI descriptions under the versioning rules (breaking or not)',
    load: async () => {
      const m = await import('./commands/diff.js');
      return { run: m.runDiff, help: m.diffHelp };
    },
  },
};

export const topHelp = `Usage: conformance <command> [options]

Conformance suite and reference mock for the Projects, Employees and Assignments Public API (v1).

Commands:
${Object.entries(commands).map(([name, c]) => `  ${name.padEnd(14)}${c.summary}`).join('\n')}

Options:
  -h, --help     show this help
  -V, --version  print the version of the suite and of the API document it checks

Run 'conformance <command> --help' for the options of a command.
Exit codes: 0 success; 1 the target or the change does not conform (a must or implied
requirement failed, a regression); 2 usage or configuration error.
`;

const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { version?: string; };

/** `conformance 0.1.0 (API document 1.6.0)`: the suite's version and the document version it checks. */
export function versionLine(): string {
  return `conformance ${readJson('../package.json').version ?? 'unknown'} (API document ${specVersion})`;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    err(topHelp);
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h') {
    out(topHelp);
    return 0;
  }
  if (name === '--version' || name === '-V') {
    out(versionLine());
    return 0;
  }
  if (name === 'help') return rest[0] ? main([rest[0], '--help']) : main(['--help']);
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    const option = name.startsWith('-');
    const near = didYouMean(name, option ? ['--help', '--version'] : Object.keys(commands));
    err(`conformance: unknown ${option ? 'option' : 'command'} '${name}'${near ? ` (did you mean '${near}'?)` : ''}; see 'conformance --help'`);
    return EXIT_USAGE;
  }
  const { run, help } = await command.load();
  if (wantsHelp(rest)) {
    out(help);
    return 0;
  }
  return run(rest);
}
