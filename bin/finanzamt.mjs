#!/usr/bin/env node
// The `finanzamt` command. The package ships its TypeScript sources and needs no compile step: where Node strips
// types itself (process.features.typescript: Node 22.18+, 23.6+, 24), it runs them as they are (tsconfig's
// erasableSyntaxOnly keeps them strippable); on an older Node, tsx transpiles them as they load.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./cli.ts');
