// Runs the `mock` command directly: `npx tsx mock/run.ts [options]` (see mockHelp).
import { runMock } from './main.js';

process.exitCode = await runMock(process.argv.slice(2));
