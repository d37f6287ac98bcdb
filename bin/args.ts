import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../contract/suggest.js';

export { didYouMean } from '../contract/suggest.js';

// Flag parsing for every command, `mock` included: an unknown flag, a missing value or a stray
// argument is a usage problem with a stable code, reported the same way everywhere — one line
// naming the command, the problem and (when a known name is close) what was probably meant,
// then the way to the help — and exit code 2.

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;
export type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true; }>>;

export type UsageCode = 'UNKNOWN_OPTION' | 'MISSING_VALUE' | 'UNEXPECTED_ARGUMENT' | 'INVALID_VALUE' | 'UNKNOWN_COMMAND';
export interface UsageProblem {
  code: UsageCode;
  message: string;
}

export type ParseResult<O extends Options> =
  | { ok: true; values: Parsed<O>['values']; positionals: string[]; }
  | { ok: false; problem: UsageProblem; message: string; };

const suggestion = (word: string, known: readonly string[]) => {
  const near = didYouMean(word, known);
  return near ? ` (did you mean '${near}'?)` : '';
};

/** "unknown mock fault 'nope' (did you mean 'nop'?)" — one line, whatever the number of known values. */
export function unknownValue(what: string, value: string, known: readonly string[]): string {
  return `unknown ${what} '${value}'${suggestion(value, known)}`;
}

function problemOf(e: unknown, options: Options): UsageProblem {
  const error = e as { code?: string; message?: string; };
  const text = String(error.message ?? e);
  const flags = Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
  const unknown = /Unknown option '([^']+)'/.exec(text)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    return { code: 'UNKNOWN_OPTION', message: `unknown option '${unknown}'${suggestion(unknown, flags)}` };
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /Unexpected argument '([^']+)'/.exec(text)?.[1] ?? '';
    return { code: 'UNEXPECTED_ARGUMENT', message: `unexpected argument '${arg}'` };
  }
  const missing = /Option '(-[^ ',]+)(?:, (--[^ ']+))? <value>' argument missing/.exec(text);
  if (missing) return { code: 'MISSING_VALUE', message: `option '${missing[2] ?? missing[1]}' needs a value` };
  // node's messages are clear but long; keep the first sentence.
  return { code: 'INVALID_VALUE', message: text.split('. To specify')[0] ?? 'invalid arguments' };
}

export function parseFlags<O extends Options>(argv: readonly string[], options: O, allowPositionals = true): ParseResult<O> {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals, strict: true });
    return { ok: true, values, positionals };
  } catch (e) {
    const problem = problemOf(e, options);
    return { ok: false, problem, message: problem.message };
  }
}

export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function err(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Prints a usage problem on one line with the way to the command's help; returns exit code 2.
 * `label` is how the program names itself (`conformance run`, or `mock` when run standalone).
 */
export function usageError(command: string, message: string, label = `conformance ${command}`): number {
  err(`${label}: ${message}; see 'conformance ${command} --help'`);
  return EXIT_USAGE;
}

export const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');
