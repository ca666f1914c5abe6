// A frozen test bundle (a real month of the shipped data), parsed and assembled once per test worker.
import { assembleDirectory } from '../../build/assemble/assemble.ts';
import { readBundle, type SourceBundle } from '../../build/sources/bundle.ts';
import { FROZEN_BUNDLES, type FrozenBundle } from './frozenBundle.ts';

type Loaded = { bundle: SourceBundle } & ReturnType<typeof assembleDirectory>;
const loaded = new Map<FrozenBundle, Promise<Loaded>>();

export function realDirectory(bundle: FrozenBundle = '2025'): Promise<Loaded> {
  if (!loaded.has(bundle)) loaded.set(bundle, readBundle(FROZEN_BUNDLES[bundle]).then((b) => ({ bundle: b, ...assembleDirectory(b) })));
  return loaded.get(bundle)!;
}
