/** A rule of docs/data.md cannot be applied to the bundle: the build stops and publishes nothing. */
export class AssemblyError extends Error {
  override name = 'AssemblyError';
}
