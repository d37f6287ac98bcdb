#!/usr/bin/env node
// Package bin: runs the command line's build (bin/cli.ts bundled into dist/), rebuilt first when stale.
import { runEntry } from '../build/run.mjs';

await runEntry('cli', process.argv.slice(2));
