// The streets of the cities whose streets are sourced (docs/data.md, rule 16): Köln's street segments with the
// house-number range on each side, and every address of Dortmund with its statistical Unterbezirk. Each becomes
// points in WGS84 (proj4 converts them) that the assembly places in the city's parts and postal-code areas.
import type { Position } from 'geojson';
import { parseCsv } from './csv.ts';
import { SourceError } from './errors.ts';
import { companion, fromUtm32, projectionOf, shapefileRecords, type BundleBytes, type ToWgs84 } from './geoAreas.ts';

/** One side of a Köln street segment that has house numbers: its range as the list writes it, and a point on that side. */
export interface SegmentSide {
  von: string;
  bis: string;
  point: Position;
}

export interface StreetSegment {
  /** The city's street key (the first five digits of the segment's number, else its name): namesakes told apart. */
  key: string;
  name: string;
  /** Metres, as the file gives it (SHAPE_LEN). */
  length: number;
  sides: SegmentSide[];
}

/** An address of Dortmund's list. */
export interface AddressPoint {
  key: string;
  name: string;
  /** The number with its suffix, lower case ("12a"). */
  hausnummer: string;
  point: Position;
  /** The statistical Unterbezirk, three digits. */
  unterbezirk: string;
}

/**
 * How far beside the line a side's point lies: far enough that it falls into the part on that side where the street
 * is the parts' border, near enough that it stays by the street.
 */
const SIDE_OFFSET_METRES = 12;

/** Köln's segments with house numbers, from the shapefile and its `.dbf` (Windows-1252) and `.prj`. */
export async function readStreetSegments(files: BundleBytes[]): Promise<StreetSegment[]> {
  const segments: StreetSegment[] = [];
  for (const shp of files.filter((f) => f.path.endsWith('.shp'))) {
    const toWgs84 = projectionOf(companion(files, shp.path, '.prj').bytes.toString('utf8'), shp.path);
    const records = await shapefileRecords(shp, companion(files, shp.path, '.dbf'));
    records.forEach((record, index) => {
      const p = record.properties as Record<string, string | number | null>;
      const sides = (['L', 'R'] as const).flatMap((side) => {
        const von = houseNumber(p[`HSNR_V_${side}`]);
        const bis = houseNumber(p[`HSNR_B_${side}`]);
        if (von === null && bis === null) return [];
        // A range with one end given (a few of 2013) is that one number.
        return [{ von: von ?? bis!, bis: bis ?? von!, side }];
      });
      if (sides.length === 0) return;
      const name = typeof p.STRASSE === 'string' ? p.STRASSE.trim() : '';
      // One segment of 2013 ("Irisweg Zü") has no number: its name is its key.
      const key = typeof p.NUMMER === 'string' && /^\d{5}/.test(p.NUMMER) ? p.NUMMER.slice(0, 5) : name;
      if (name === '') throw new SourceError(shp.path, index + 1, 'STRASSE', `a segment with house numbers but no street: ${JSON.stringify(p)}`);
      const line = lineOf(record.geometry);
      if (line === null) throw new SourceError(shp.path, index + 1, 'geometry', `${name}: expected a line`);
      const length = typeof p.SHAPE_LEN === 'number' ? p.SHAPE_LEN : 0;
      segments.push({ key, name, length, sides: sides.map((s) => ({ von: s.von, bis: s.bis, point: sidePoint(line, s.side === 'L' ? 1 : -1, toWgs84) })) });
    });
  }
  return segments;
}

/** "0009a" → "9a"; null for an empty field. */
function houseNumber(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim().toLowerCase();
  return text === '' ? null : text.replace(/^0+(?=\d)/, '');
}

function lineOf(geometry: { type: string; coordinates?: unknown } | null): Position[] | null {
  if (geometry?.type === 'LineString') return geometry.coordinates as Position[];
  if (geometry?.type === 'MultiLineString') return (geometry.coordinates as Position[][]).flat();
  return null;
}

/**
 * The point SIDE_OFFSET_METRES to the left (`sign` 1) or right (-1) of the middle of the line, in the direction it
 * was drawn, which is what the file's left and right ranges refer to. Plain vector arithmetic on the file's metric
 * coordinates: the line's midpoint and its normal there.
 */
function sidePoint(line: Position[], sign: 1 | -1, toWgs84: ToWgs84): Position {
  const lengths = line.slice(1).map((p, i) => Math.hypot(p[0]! - line[i]![0]!, p[1]! - line[i]![1]!));
  let rest = lengths.reduce((a, b) => a + b, 0) / 2;
  let i = 0;
  while (i < lengths.length - 1 && rest > lengths[i]!) rest -= lengths[i++]!;
  const [ax, ay] = line[i]! as [number, number];
  const [bx, by] = (line[i + 1] ?? line[i]!) as [number, number];
  const length = lengths[i] || 1;
  const t = rest / length;
  const nx = -(by - ay) / length;
  const ny = (bx - ax) / length;
  return toWgs84([ax + (bx - ax) * t + sign * nx * SIDE_OFFSET_METRES, ay + (by - ay) * t + sign * ny * SIDE_OFFSET_METRES]);
}

const ADDRESS_COLUMNS = ['STRNAME', 'STRSL', 'HNR', 'HNRZ', 'RW', 'HW', 'UBZ'] as const;

/** Dortmund's addresses: UTF-8 CSV, `NA` for an empty suffix, coordinates in EPSG:25832. */
export function readAddresses(text: string, file: string): AddressPoint[] {
  return parseCsv(text, file, ADDRESS_COLUMNS).map(({ line, values }) => {
    const { STRNAME: name, STRSL: key, HNR: number, HNRZ: suffix, RW: rw, HW: hw, UBZ: unterbezirk } = values;
    if (name.trim() === '' || !/^\d+$/.test(key)) throw new SourceError(file, line, 'STRNAME', 'no street name or key');
    if (!/^\d+$/.test(number) || !/^(NA|[A-Za-z])$/.test(suffix)) throw new SourceError(file, line, 'HNR', `not a house number: ${number} ${suffix}`);
    if (!/^\d{3}$/.test(unterbezirk)) throw new SourceError(file, line, 'UBZ', `expected three digits, got ${JSON.stringify(unterbezirk)}`);
    const x = Number(rw);
    const y = Number(hw);
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new SourceError(file, line, 'RW', 'coordinates are not numbers');
    return { key, name: name.trim(), hausnummer: `${Number(number)}${suffix === 'NA' ? '' : suffix.toLowerCase()}`, point: fromUtm32([x, y]), unterbezirk };
  });
}
