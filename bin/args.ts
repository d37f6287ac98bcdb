import { parseArgs, type ParseArgsConfig } from 'node:util';

// Flag parsing for every command: unknown flags and missing values are usage errors
// (exit 2), reported as data so each command prints them the same way.

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;
export type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>;

export type ParseResult<O extends Options> = { ok: true; values: Parsed<O>['values']; positionals: string[] } | { ok: false; message: string };

export function parseFlags<O extends Options>(argv: readonly string[], options: O): ParseResult<O> {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    return { ok: true, values, positionals };
  } catch (e) {
    // node's messages are clear but long; keep the first sentence.
    return { ok: false, message: String((e as Error).message).split('. To specify')[0] ?? 'invalid arguments' };
  }
}

export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function err(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Prints a usage error with the way to the command's help; returns exit code 2. */
export function usageError(command: string, message: string): number {
  err(`conformance ${command}: ${message}\nRun 'conformance ${command} --help' for usage.`);
  return EXIT_USAGE;
}

export const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');
