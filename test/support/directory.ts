// The real shipped bundle, parsed and assembled once per test worker.
import { assembleDirectory } from '../../build/assemble/assemble.ts';
import { readBundle, type SourceBundle } from '../../build/sources/bundle.ts';

let loaded: Promise<{ bundle: SourceBundle } & ReturnType<typeof assembleDirectory>> | undefined;

export function realDirectory() {
  loaded ??= readBundle('data').then((bundle) => ({ bundle, ...assembleDirectory(bundle) }));
  return loaded;
}
