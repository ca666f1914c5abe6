#!/usr/bin/env node
// The `finanzamt` command. The package ships its TypeScript sources and needs no compile step: where Node strips
// types itself (process.features.typescript: Node 22.18+, 23.6+, 24), it runs them as they are (tsconfig's
// erasableSyntaxOnly keeps them strippable); on an older Node, tsx transpiles them as they load. First of all, the
// node flags the systemd unit wants where the running node knows them (nodeFlags.mjs).
import { applyNodeFlags } from './nodeFlags.mjs';

applyNodeFlags();
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./cli.ts');
