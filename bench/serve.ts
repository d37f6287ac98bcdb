// A server for the benchmarks, run in its own process so it does not share an
// event loop with the load generator. Prints one JSON line once listening:
//   { "url": "...", "settings": { ... } }
// Run from its build, dist/bench-serve.js (children.ts), so the mock measured is the one
// `npm run mock` runs. Usage:
//   serve mock [N]              the reference mock (in-memory, default options; N: population)
//   serve mock-framework [N]    the same, every request through fastify (directReads: false)
//   serve mock-with <json>      the reference mock with these start() options (e.g. short timeouts)
//   serve bare <file>           a bare node:http server answering every request
//                                           with the response captured in <file> (JSON:
//                                           { status, contentType, bodyBase64 }), or, when the
//                                           file holds { answers: { "METHOD /path": that } },
//                                           each request with the answer recorded for it
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockOptions, start } from '../mock/index.js';

interface Captured {
  status: number;
  contentType: string;
  bodyBase64: string;
}

interface CapturedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function answerOf(captured: Captured): CapturedAnswer {
  const body = Buffer.from(captured.bodyBase64, 'base64');
  return { status: captured.status, headers: { 'content-type': captured.contentType, 'content-length': String(body.length) }, body };
}

async function serveBare(file: string): Promise<{ url: string; }> {
  const captured = JSON.parse(readFileSync(file, 'utf8')) as Captured | { answers: Record<string, Captured>; };
  const single = 'answers' in captured ? undefined : answerOf(captured);
  const answers = new Map('answers' in captured ? Object.entries(captured.answers).map(([k, v]) => [k, answerOf(v)]) : []);
  const missing = answerOf({ status: 404, contentType: 'application/json', bodyBase64: Buffer.from('{}').toString('base64') });
  const server = createServer((req, res) => {
    req.resume();
    const answer = single ?? answers.get(`${req.method} ${req.url}`) ?? missing;
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const [kind, file] = process.argv.slice(2);
if (kind === 'mock' || kind === 'mock-framework') {
  const population = file === undefined ? {} : { population: Number(file) };
  const mock = await start({ port: 0, directReads: kind === 'mock', ...population });
  // A clean exit on SIGTERM, so that `node --cpu-prof` writes its profile.
  process.once('SIGTERM', () => void mock.close().then(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ url: mock.url, settings: mock.settings })}\n`);
} else if (kind === 'mock-with' && file) {
  const mock = await start({ ...(JSON.parse(file) as MockOptions), port: 0 });
  process.once('SIGTERM', () => void mock.close().then(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ url: mock.url, settings: mock.settings })}\n`);
} else if (kind === 'bare' && file) {
  process.stdout.write(`${JSON.stringify(await serveBare(file))}\n`);
} else {
  process.stderr.write('usage: serve mock [population] | mock-framework [population] | mock-with <options json> | bare <captured-response.json>\n');
  process.exit(2);
}
