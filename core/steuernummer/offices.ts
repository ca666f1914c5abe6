// Which office answers for the office number inside a tax number. Tax numbers outlive their offices: a number
// issued by an office that has since been merged away names a number that no longer exists (docs/data.md, rules 4
// and 4b), and the office that took over its cases answers for it; where its municipalities went to several
// offices, each of them does.
import type { Office } from '../model.ts';
import type { DirectoryIndex } from '../directoryIndex.ts';

export interface NamedOffice {
  office: Office;
  /** `verzeichnis`: the number is the office's own; `nachfolger`: the number is retired and this office succeeded it. */
  zuordnung: 'verzeichnis' | 'nachfolger';
  /** The retired number, where `nachfolger`; else null. */
  ersetzt: string | null;
}

/** The offices that answer for office number `nr`: its own, or its successors; none where neither is known. */
export function officesNamed(ix: DirectoryIndex, nr: string): NamedOffice[] {
  const office = ix.offices.get(nr);
  if (office !== undefined) return [{ office, zuordnung: 'verzeichnis', ersetzt: null }];
  return (ix.retiredOffices.get(nr)?.nachfolger ?? [])
    .map((successor): NamedOffice => ({ office: ix.offices.get(successor)!, zuordnung: 'nachfolger', ersetzt: nr }));
}
