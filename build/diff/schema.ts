// What changed between two published versions of the directory: the review sheet of a monthly release and
// the `diff` field of every build report. Lists are sorted by their key so that a diff is deterministic.
import { z } from 'zod';
import { Ags, BufaNr, Plz, Stand, StandQuelle } from '../../core/model.ts';

const VersionRef = z.object({ stand: Stand, stand_quelle: StandQuelle });

const OfficeRef = z.object({ bufa_nr: BufaNr, name: z.string() });

/** One field of an office that differs; nested fields are named by their path ("anschrift.strasse"). */
const FieldChange = z.object({ field: z.string(), before: z.json(), after: z.json() });
export type FieldChange = z.infer<typeof FieldChange>;

const MunicipalityRef = z.object({ ags: Ags, name: z.string(), bufa_nr: z.array(BufaNr) });

export const DirectoryDiff = z.object({
  from: VersionRef,
  to: VersionRef,
  summary: z.object({
    offices_added: z.number().int().nonnegative(),
    offices_removed: z.number().int().nonnegative(),
    offices_renamed: z.number().int().nonnegative(),
    offices_changed: z.number().int().nonnegative(),
    municipalities_added: z.number().int().nonnegative(),
    municipalities_removed: z.number().int().nonnegative(),
    municipalities_reassigned: z.number().int().nonnegative(),
    postal_codes_added: z.number().int().nonnegative(),
    postal_codes_removed: z.number().int().nonnegative(),
    postal_codes_changed: z.number().int().nonnegative(),
  }),
  offices: z.object({
    added: z.array(OfficeRef),
    removed: z.array(OfficeRef),
    /** Same office number, another name. */
    renamed: z.array(z.object({ bufa_nr: BufaNr, before: z.string(), after: z.string() })),
    /** Same office number, other fields differ (the name is reported under `renamed`). */
    changed: z.array(z.object({ bufa_nr: BufaNr, name: z.string(), fields: z.array(FieldChange) })),
  }),
  municipalities: z.object({
    added: z.array(MunicipalityRef),
    removed: z.array(MunicipalityRef),
    /** Municipalities in both versions whose set of responsible offices differs. */
    reassigned: z.array(z.object({ ags: Ags, name: z.string(), before: z.array(BufaNr), after: z.array(BufaNr) })),
  }),
  postal_codes: z.object({
    added: z.array(z.object({ plz: Plz, ags: z.array(Ags) })),
    removed: z.array(z.object({ plz: Plz, ags: z.array(Ags) })),
    /** Postal codes in both versions whose set of municipalities differs. */
    changed: z.array(z.object({ plz: Plz, before: z.array(Ags), after: z.array(Ags) })),
  }),
});
export type DirectoryDiff = z.infer<typeof DirectoryDiff>;
