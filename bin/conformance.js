#!/usr/bin/env node
// Package bin shim: TypeScript sources run through tsx's loader, no build step.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
