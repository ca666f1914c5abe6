// The direction of the code, checked by test/layout/direction.test.ts (and by `npx depcruise --config
// .dependency-cruiser.cjs bin build core proxy client bench`): data flows data/ → build/ → dist/ → proxy/, and
// core/ is what both sides share, so it imports neither; and no import loop anywhere. The parser is swc because TypeScript 7 has no
// JavaScript API for dependency-cruiser to use.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-neither',
      comment: 'core/ is shared by the build, the proxy and the client: it may import only itself and packages.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(bin|build|proxy|client|bench|test)/' },
    },
    {
      name: 'build-not-downstream',
      comment: 'The build writes dist/ and knows nothing of what serves or calls it.',
      severity: 'error',
      from: { path: '^build/' },
      to: { path: '^(bin|proxy|client|bench|test)/' },
    },
    {
      name: 'proxy-not-build',
      comment: 'The proxy serves what the build wrote and reads it through core/. `finanzamt start`, which builds what is missing before it serves, is the entry point\'s (bin/start.ts).',
      severity: 'error',
      from: { path: '^proxy/' },
      to: { path: '^(bin|build|client|bench|test)/' },
    },
    {
      name: 'proxy-no-openapi-generator',
      comment: 'The OpenAPI document and its reference page are built with their version (build/openapi/) and served as stored answers: no part of the proxy generates them.',
      severity: 'error',
      from: { path: '^proxy/' },
      to: { path: '^build/openapi/|node_modules/@scalar/' },
    },
    {
      name: 'client-only-core',
      comment: 'The client is what callers install: it renders local answers with core/ and needs nothing else here.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^(bin|build|proxy|bench|test)/' },
    },
    {
      name: 'bench-borrows-no-test',
      comment: 'The benchmarks reuse the suite\'s request generators and probes (the soak runs the fuzz generators longer), never a test file itself.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '\\.test\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports (type-only and lazy ones too): a loop ties its modules into one that can only be read, loaded and changed whole.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'bin-only-registers',
      comment: 'The entry point registers the commands; it reaches nothing of the suite.',
      severity: 'error',
      from: { path: '^bin/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // What `npm pack` compiles the client to while it packs: output, not code of the repository.
    exclude: { path: '^client/dist/' },
    tsPreCompilationDeps: true,
    parser: 'swc',
  },
};
