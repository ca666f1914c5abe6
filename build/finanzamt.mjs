#!/usr/bin/env node
// The `finanzamt` command: TypeScript runs through tsx, so the package ships its sources and needs no compile step.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
