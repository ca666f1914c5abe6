// The frozen test bundle (a real month of the shipped data), parsed and assembled once per test worker.
import { assembleDirectory } from '../../build/assemble/assemble.ts';
import { readBundle, type SourceBundle } from '../../build/sources/bundle.ts';
import { FROZEN_BUNDLE } from './frozenBundle.ts';

let loaded: Promise<{ bundle: SourceBundle } & ReturnType<typeof assembleDirectory>> | undefined;

export function realDirectory() {
  loaded ??= readBundle(FROZEN_BUNDLE).then((bundle) => ({ bundle, ...assembleDirectory(bundle) }));
  return loaded;
}
