// A directory diff as text for a person reviewing a release: a summary line, then one section per kind of
// change, each line one office, municipality or postal code.
import type { DirectoryDiff } from './schema.ts';

export function summarizeDiff(d: DirectoryDiff): string {
  const s = d.summary;
  return `offices +${s.offices_added} -${s.offices_removed} renamed ${s.offices_renamed} changed ${s.offices_changed}; `
    + `municipalities +${s.municipalities_added} -${s.municipalities_removed} reassigned ${s.municipalities_reassigned}; `
    + `postal codes +${s.postal_codes_added} -${s.postal_codes_removed} changed ${s.postal_codes_changed}`;
}

export function formatDiff(d: DirectoryDiff): string {
  const offices = (list: string[]) => list.join(', ') || '-';
  const sections: [title: string, lines: string[]][] = [
    ['offices added', d.offices.added.map((o) => `${o.bufa_nr} ${o.name}`)],
    ['offices removed', d.offices.removed.map((o) => `${o.bufa_nr} ${o.name}`)],
    ['offices renamed', d.offices.renamed.map((o) => `${o.bufa_nr} ${o.before} → ${o.after}`)],
    ['offices changed', d.offices.changed.map((o) => `${o.bufa_nr} ${o.name}: ${o.fields
      .map((f) => `${f.field} ${JSON.stringify(f.before)} → ${JSON.stringify(f.after)}`).join('; ')}`)],
    ['municipalities added', d.municipalities.added.map((m) => `${m.ags} ${m.name} (${offices(m.bufa_nr)})`)],
    ['municipalities removed', d.municipalities.removed.map((m) => `${m.ags} ${m.name} (${offices(m.bufa_nr)})`)],
    ['municipalities with other offices', d.municipalities.reassigned.map((m) => `${m.ags} ${m.name}: ${offices(m.before)} → ${offices(m.after)}`)],
    ['postal codes added', d.postal_codes.added.map((p) => `${p.plz} (${p.ags.join(', ')})`)],
    ['postal codes removed', d.postal_codes.removed.map((p) => `${p.plz} (${p.ags.join(', ')})`)],
    ['postal codes with other municipalities', d.postal_codes.changed.map((p) => `${p.plz}: ${p.before.join(', ')} → ${p.after.join(', ')}`)],
  ];
  const header = `${d.from.stand_quelle} → ${d.to.stand_quelle}: ${summarizeDiff(d)}`;
  const body = sections.filter(([, lines]) => lines.length > 0)
    .map(([title, lines]) => `\n${title} (${lines.length}):\n${lines.map((l) => `  ${l}`).join('\n')}`);
  return [header, ...(body.length > 0 ? body : ['no changes'])].join('\n');
}
