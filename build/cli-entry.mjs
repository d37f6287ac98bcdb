// The command line as bundled into dist/cli.cjs (build/bundle.mjs): bin/cli.ts without its
// top-level await, which a CommonJS bundle cannot hold. CommonJS, because on Node 20 only a
// script can be compiled from V8's code cache (build/common-js.mjs).
import { main } from '../bin/main.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
