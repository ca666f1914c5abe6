// A render thread's entry as plain JavaScript: a thread does not inherit the tsx registration that
// bin/finanzamt.mjs makes where Node cannot strip types itself, so it makes its own, as that file does.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { default: renderTask } = await import('./renderTask.ts');
export default renderTask;
