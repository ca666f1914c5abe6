// Rule 3b (docs/data.md): which office numbers exist. The newest office list decides which numbers exist and what
// each is called; the older list, where the bundle has both, gives street address and contacts for the numbers
// it has. A number of the older list that the newest lacks is retired (rule 4b). Without a newer list the older
// one is the newest and nothing is retired.
import type { OfficeList } from '../sources/officeList.ts';
import type { SourceOffice } from '../sources/offices.ts';

/** An office that exists, with the state code the newest list gives (a GV100AD Land key, or null). */
export interface CurrentOffice extends SourceOffice {
  listedLand: string | null;
}

export interface OfficeLists {
  current: CurrentOffice[];
  /** Numbers of the older list that the newest one no longer has, as the older list describes them. */
  retired: SourceOffice[];
}

export function officeLists(older: SourceOffice[], newest: OfficeList | null): OfficeLists {
  if (newest === null) return { current: older.map((o) => ({ ...o, listedLand: null })), retired: [] };
  const described = new Map(older.map((o) => [o.bufa_nr, o]));
  const listed = new Set(newest.offices.map((o) => o.bufa_nr));
  return {
    current: newest.offices.map((o): CurrentOffice => {
      const known = described.get(o.bufa_nr);
      return {
        line: o.line, bufa_nr: o.bufa_nr, name: o.name, listedLand: o.land,
        hausanschrift: known?.hausanschrift ?? null, tel: known?.tel ?? null, fax: known?.fax ?? null,
        mail: known?.mail ?? null, url: known?.url ?? null,
      };
    }),
    retired: older.filter((o) => !listed.has(o.bufa_nr)),
  };
}
