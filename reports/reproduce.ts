// The script that reproduces one root cause on the same target: the state the failing request
// read is built again (each create, upload and change the check sent before it, in order, the ids
// the target gives the new records carried into the requests that follow), then the failing
// request is sent, and what the run saw is said beside it. It runs in a folder of its own, deletes
// on exit what the API lets it delete, and the records it cannot delete carry the run id in their
// names, as the bodies it sends are the run's. Keys are read from $CONFORMANCE_API_KEY*, never written.
import type { ReportFailure, RootCause } from './types.js';

/** The script's file name in the report folder: named with the run id and the cause. */
export const reproduceFile = (runId: string | undefined, causeId: string): string => `reproduce-${runId ?? 'run'}-${causeId}.sh`;

/** Collections whose records the API lets a client delete (§4): the script removes what it made there. */
const DELETABLE = /\/(assignments|attachments|files)$/;

const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const one = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A curl line of the transcript, ready to capture: no response headers, ids of records made earlier read from their variables. */
function withIds(curl: string, ids: readonly (readonly [string, string])[]): string {
  let line = curl;
  // In single quotes (URL, body, form fields): close them around the variable.
  for (const [id, variable] of ids) line = line.split(id).join(`'"\$${variable}"'`);
  return line;
}

/** The authorization header a curl line sends, as written in it (a key's variable, never its value). */
const authOf = (curl: string) => /-H ("authorization: [^"]*"|'authorization: [^']*')/i.exec(curl)?.[1];

/**
 * The script of a cause, or undefined when its failure has no request to send. `mockLines` start
 * the bundled mock again when the run's target is gone with it.
 */
export function reproduceScript(cause: RootCause, o: { runId?: string; mockLines?: readonly string[]; }): string | undefined {
  const f: ReportFailure = cause.failure;
  if (!f.request || !f.curl) return undefined;
  const steps = f.state ?? [];
  const ids: [string, string][] = [];
  const lines = [
    '#!/bin/sh',
    `# Reproduces root cause ${cause.id} of conformance run ${o.runId ?? '(no run id)'}:`,
    `#   ${one(cause.message)}`,
    `# It builds again the state the failing request read (${steps.length} request${steps.length === 1 ? '' : 's'}), sends that request`,
    '# and deletes on exit what the API lets it delete; the records it makes carry the run id in their names.',
    '# The keys are read from the environment: export CONFORMANCE_API_KEY (and CONFORMANCE_API_KEY_OTHER_TEAM) first.',
    ...(o.mockLines?.length
      ? ["# The run's target was the bundled mock, gone with the run; start the same one first:", ...o.mockLines.map((l) => `#   ${l}`)]
      : []),
    'set -u',
    'here=$(mktemp -d)',
    'cd "$here" || exit 1',
    'cleanup() {',
  ];
  const cleanups: string[] = [];
  const body: string[] = [];
  steps.forEach((step, i) => {
    const n = i + 1;
    const variable = `ID_${n}`;
    const curl = withIds(step.curl, ids).replace(/\bcurl -sS -i /, 'curl -sS ');
    body.push('', `echo ${single(`${n}. ${step.summary.replace(/ → \d{3}$/, '')}`)}`);
    if (step.created !== undefined) {
      // The body, then the status on a line of its own; the new record's id is the first "id" of the body.
      body.push(
        `answer=$(${curl.replace(/\bcurl -sS /, `curl -sS -w '\\n%{http_code}' `)})`,
        `${variable}=$(printf '%s\\n' "$answer" | sed '$d' | tr -d '\\r\\n' | grep -o '"id" *: *"[^"]*"' | head -n 1 | sed 's/.*: *"//; s/"$//')`,
        `echo "   → $(printf '%s\\n' "$answer" | tail -n 1), id \$${variable}"`,
      );
      ids.push([step.created, variable]);
      const url = /-X POST '([^']*)'/.exec(step.curl)?.[1];
      const auth = authOf(step.curl);
      if (url && DELETABLE.test(new URL(url).pathname) && auth) {
        cleanups.push(`  [ -n "\${${variable}:-}" ] && curl -sS -o /dev/null -X DELETE ${single(`${url}/`)}"\$${variable}" -H ${auth}`);
      }
    } else {
      body.push(`echo "   → $(${curl.replace(/\bcurl -sS /, `curl -sS -o /dev/null -w '%{http_code}' `)})"`);
    }
  });
  const seen = f.response ? `${f.response.status}${f.response.body ? ` ${one(f.response.body).slice(0, 160)}` : ''}` : 'no response';
  const differs = (f.differences ?? []).slice(0, 8).map((d) => `${d.path || '(the value)'}: got ${d.got ?? 'nothing'}, expected ${d.expected ?? 'nothing'}`);
  body.push(
    '',
    withIds(`echo ${single(`${steps.length + 1}. the failing request: ${f.request.method} ${f.request.url}`)}`, ids),
    withIds(`echo ${single(`   look for: ${cut(one(f.message.split('\n')[0] ?? ''), 300)}`)}`, ids),
    ...differs.map((d) => `echo ${single(`     ${d}`)}`),
    `echo ${single(`   the run saw: ${seen}`)}`,
    withIds(f.curl, ids),
    'echo',
  );
  return [...lines, ...cleanups, '  cd / && rm -rf "$here"', '}', 'trap cleanup EXIT', ...body, ''].join('\n');
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
