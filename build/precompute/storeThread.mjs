// The entry of the build's worker threads (storePool.ts) as plain JavaScript: a thread does not inherit the tsx
// registration that bin/finanzamt.mjs makes where Node cannot strip types itself, so it makes its own.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { store } = await import('./storeWorker.ts');
export { store };
