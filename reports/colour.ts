// Colour in the terminal only: a redirected or piped output gets plain text. FORCE_COLOR wins
// (as in Node itself: FORCE_COLOR=0 turns colour off), then NO_COLOR (https://no-color.org),
// then whether the stream is a terminal.

export interface Paint {
  enabled: boolean;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function colourWanted(stream: { isTTY?: boolean; }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const sgr = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const plain = (s: string) => s;

export function paint(enabled: boolean): Paint {
  if (!enabled) return { enabled, red: plain, green: plain, yellow: plain, blue: plain, dim: plain, bold: plain };
  return { enabled, red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), blue: sgr(34, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}
