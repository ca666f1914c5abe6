// Which office answers for the office number inside a tax number. Tax numbers outlive their offices: a number
// issued by an office that has since been merged away names a retired office number (data rule 4b), and the
// office that took over its cases answers for it.
import type { Office } from '../model.ts';
import type { DirectoryIndex } from '../render.ts';

export interface NamedOffice {
  office: Office;
  /** `verzeichnis`: the number is the office's own; `nachfolger`: the number is retired and this office succeeded it. */
  zuordnung: 'verzeichnis' | 'nachfolger';
  /** The retired number, where `nachfolger`; else null. */
  ersetzt: string | null;
}

/**
 * The office that answers for office number `nr`, or null when none does. The directory does not list retired
 * numbers with their successors yet; once it does (data rule 4b), a retired `nr` answers its successor here as
 * `{ office: successor, zuordnung: 'nachfolger', ersetzt: nr }`, and the tax-number lookup needs no other change.
 */
export function officeNamed(ix: DirectoryIndex, nr: string): NamedOffice | null {
  const office = ix.offices.get(nr);
  return office === undefined ? null : { office, zuordnung: 'verzeichnis', ersetzt: null };
}
