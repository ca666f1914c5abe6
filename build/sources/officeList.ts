// The newest office list (docs/data.md, rule 3b): a YAML file derived from the BZSt GemFA export, one entry per
// office number with its name and the two-letter code of its state (blank where the source leaves it out).
// It decides which numbers exist and what each is called; addresses and contacts come from the older list.
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { SourceError } from './errors.ts';
import { digits, lineNumber, nonBlank, validate } from './validate.ts';

/** The state codes the list uses, as GV100AD Land keys. */
const LAND_OF_CODE = {
  SH: '01', HH: '02', NI: '03', HB: '04', NW: '05', HE: '06', RP: '07', BW: '08', BY: '09', SL: '10', BE: '11',
  BB: '12', MV: '13', SN: '14', ST: '15', TH: '16',
} as const;

export const ListedOffice = z.object({
  line: lineNumber,
  bufa_nr: digits(4),
  /** The list's text, unchanged: rule 3b takes the name as the list writes it. */
  name: nonBlank,
  /** The GV100AD Land key of the list's state code; null where the list gives none. */
  land: z.enum(Object.values(LAND_OF_CODE)).nullable(),
});
export type ListedOffice = z.infer<typeof ListedOffice>;

export const OfficeList = z.object({ revision: z.iso.date(), offices: z.array(ListedOffice) });
export type OfficeList = z.infer<typeof OfficeList>;

// The file's own shape. Strict, so that a field added to the list is noticed instead of ignored.
const ListEntry = z.strictObject({
  name: nonBlank,
  state: z.enum(Object.keys(LAND_OF_CODE) as [keyof typeof LAND_OF_CODE]).or(z.literal('')).nullable().optional(),
});
const ListFile = z.strictObject({
  revision: z.iso.date(),
  source: nonBlank,
  finanzaemter: z.record(digits(4), ListEntry),
});

export function parseOfficeList(text: string, file: string): OfficeList {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const problem = document.errors[0];
  if (problem !== undefined) throw new SourceError(file, lines.linePos(problem.pos[0]).line, 'yaml', problem.message);
  const lineAt = (path: readonly PropertyKey[]) => lineOf(document, lines, path);
  const list = validate(ListFile, document.toJS(), file, lineAt);
  return {
    revision: list.revision,
    offices: Object.entries(list.finanzaemter).map(([bufa_nr, entry]) => ({
      line: lineAt(['finanzaemter', bufa_nr]),
      bufa_nr,
      name: entry.name,
      land: entry.state ? LAND_OF_CODE[entry.state] : null,
    })),
  };
}

/** The line where the node at `path` starts, or that of its deepest ancestor the path still reaches. */
function lineOf(document: Document, lines: LineCounter, path: readonly PropertyKey[]): number {
  let node: unknown = document.contents;
  let line = 1;
  for (const key of path) {
    if (!isMap(node)) break;
    const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
    const start = (pair?.key as { range?: [number, number, number] } | null)?.range?.[0];
    if (pair === undefined || start === undefined) break;
    line = lines.linePos(start).line;
    node = pair.value;
  }
  return line;
}
