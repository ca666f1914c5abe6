// Rule 7: the data version comes from the source bundle, never from the build machine's clock. For a GV100AD
// bundle it is the Gebietsstand, which every record carries and which must agree across the file.
import type { Gv100ad } from '../sources/gv100ad.ts';
import { AssemblyError } from './errors.ts';

export function dataVersion(gv: Gv100ad): { stand: string; stand_quelle: string } {
  const dates = new Set(gv.gemeinden.map((g) => g.gebietsstand));
  if (dates.size !== 1) throw new AssemblyError(`GV100AD mixes several Gebietsstände: ${[...dates].sort().join(', ')}`);
  const date = [...dates][0]!;
  const [y, m, d] = [date.slice(0, 4), date.slice(4, 6), date.slice(6, 8)];
  // GV100AD dates its extract by day only; the hour and minute of the identifier are therefore 0000.
  return { stand: `${d}.${m}.${y}`, stand_quelle: `${y}${m}${d}_0000` };
}
