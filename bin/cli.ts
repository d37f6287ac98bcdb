// Entry point of the command line (npm start, npm run mock, bin/conformance.js).
import { main } from './main.js';
import { tolerateClosedPipes } from './pipes.js';

tolerateClosedPipes();
process.exitCode = await main(process.argv.slice(2));
