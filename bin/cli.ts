// The command line's one entry point: `npm start`, `npm run mock` and `npm run cli` run its build
// (dist/cli.cjs, through build/run.mjs), the package bin (bin/conformance.js) too, and tests run
// the source with tsx. No top-level await: the build is a CommonJS file (build/bundle.mjs).
import { main } from './main.js';
import { tolerateClosedPipes } from './pipes.js';

tolerateClosedPipes();
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
