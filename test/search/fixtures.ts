// Municipality lists for the search tests: hand-made ones for exact expectations, and the real directory.
import type { Municipality } from '../../core/model.ts';
import { realDirectory } from '../support/directory.ts';

/** A municipality that only its key, name and population matter for; sorted lists are the caller's job. */
export function place(ags: string, name: string, einwohner = 1000): Municipality {
  return { ags, name, plz: null, kreis: 'Testkreis', bundesland: 'Testland', einwohner, bufa_nr: [], herkunft: [] };
}

/** The municipalities of the shipped bundle, sorted by key as in the Directory. */
export async function realMunicipalities(): Promise<Municipality[]> {
  return (await realDirectory()).directory.municipalities;
}
