// Entry point of the mock's container image. The mock listens on 127.0.0.1 only,
// everywhere; a published port needs a listener on the container's interface, so
// this process starts the mock on the container's loopback and relays TCP from
// 0.0.0.0:<RELAY_PORT> to it. It runs only where MOCK_IN_CONTAINER=1 (set by the
// Dockerfile), so it never opens a non-loopback listener on a host.
// Environment (documented defaults):
//   RELAY_PORT=4010   the port published by the image
//   MOCK_PORT=4011    the mock's port on the container's loopback
//   MOCK_LIFETIME_SECONDS (unset: no bound)  stop after this long; the container
//                     target sets it so a run killed before its teardown does not
//                     leave the container running (no reaper runs without a registry)
// The mock's stdout (its CONFORMANCE_* settings) and stderr pass through unchanged;
// SIGTERM/SIGINT are forwarded to the mock and the exit code is the mock's.
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

if (process.env.MOCK_IN_CONTAINER !== '1') {
  process.stderr.write('container-relay: refusing to listen on 0.0.0.0 outside a container (MOCK_IN_CONTAINER is not 1)\n');
  process.exit(2);
}

const relayPort = Number(process.env.RELAY_PORT ?? 4010);
const mockPort = Number(process.env.MOCK_PORT ?? 4011);
// The command line as built in dist/ (build/run.mjs rebuilds it first if a source changed).
const run = fileURLToPath(new URL('../build/run.mjs', import.meta.url));

const mock = spawn(process.execPath, [run, 'cli', 'mock', '--port', String(mockPort), ...process.argv.slice(2)], {
  stdio: 'inherit',
});

const relay = createServer((client) => {
  const upstream = connect(mockPort, '127.0.0.1');
  const drop = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', drop);
  upstream.on('error', drop);
  client.pipe(upstream).pipe(client);
});
relay.listen(relayPort, '0.0.0.0');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    relay.close();
    if (mock.pid !== undefined && mock.exitCode === null) process.kill(mock.pid, signal);
  });
}
const lifetime = Number(process.env.MOCK_LIFETIME_SECONDS ?? 0);
if (lifetime > 0) {
  setTimeout(() => {
    process.stderr.write(`container-relay: MOCK_LIFETIME_SECONDS=${lifetime} reached, stopping\n`);
    relay.close();
    if (mock.pid !== undefined && mock.exitCode === null) process.kill(mock.pid, 'SIGTERM');
  }, lifetime * 1000).unref();
}
mock.on('exit', (code, signal) => {
  relay.close();
  process.exit(code ?? (signal ? 1 : 0));
});
