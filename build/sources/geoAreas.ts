// Areas for docs/data.md, rule 16: the postal-code areas of all Germany (TopoJSON), read only for the postal codes
// asked for, and the parts of a divided city (GeoJSON, EsriJSON or a shapefile), every polygon in WGS84 longitude
// and latitude. Map projections are proj4's, TopoJSON is topojson-client's, EsriJSON is @terraformer/arcgis's and
// shapefiles are shapefile's: nothing here computes geometry itself.
import type { Feature, Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import { arcgisToGeoJSON } from '@terraformer/arcgis';
import proj4 from 'proj4';
import * as shapefile from 'shapefile';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { z } from 'zod';
import { SourceError } from './errors.ts';
import { validate } from './validate.ts';

export type Area = Polygon | MultiPolygon;

/** A postal-code area as the TopoJSON carries it. */
export interface PlzArea {
  plz: string;
  geometry: Area;
}

/** A part of a city: its name as the file writes it, its number where the file has one, and its area. */
export interface PartArea {
  name: string;
  code: string | null;
  geometry: Area;
  /** The file it comes from, for the report. */
  file: string;
}

/** The ETRS89 / UTM zone 32N system (EPSG:25832) that Dortmund's files and Köln's (with another false easting) use. */
const EPSG_25832 = '+proj=utm +zone=32 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';
/** Spatial reference ids of EsriJSON files that the build can read. */
const KNOWN_WKIDS: Record<number, string> = { 25832: EPSG_25832 };

/** A conversion of a file's planar coordinates to WGS84 longitude and latitude. */
export type ToWgs84 = (xy: Position) => Position;

/** The conversion a shapefile's `.prj` (WKT) describes. */
export function projectionOf(wkt: string, file: string): ToWgs84 {
  try {
    const converter = proj4(wkt, 'WGS84');
    return (xy) => converter.forward([xy[0]!, xy[1]!]);
  } catch (error) {
    throw new SourceError(file, 0, 'projection', `proj4 cannot read it: ${(error as Error).message}`);
  }
}

/** EPSG:25832, as an EsriJSON file or Dortmund's address table names it. */
export const fromUtm32: ToWgs84 = (() => {
  const converter = proj4(EPSG_25832, 'WGS84');
  return (xy: Position) => converter.forward([xy[0]!, xy[1]!]);
})();

const TopologyShape = z.looseObject({
  type: z.literal('Topology'),
  objects: z.record(z.string(), z.looseObject({
    type: z.literal('GeometryCollection'),
    geometries: z.array(z.looseObject({ properties: z.looseObject({ plz: z.string().regex(/^\d{5}$/) }) })),
  })),
});

/** The postal-code areas of the TopoJSON; `areasOf` turns only the codes asked for into polygons. */
export interface PlzAreas {
  codes: Set<string>;
  areasOf: (codes: Set<string>) => PlzArea[];
}

export function parsePlzAreas(text: string, file: string): PlzAreas {
  const topology = validate(TopologyShape, jsonOf(text, file), file, 0) as unknown as Topology;
  const objects = Object.values(topology.objects) as GeometryCollection<{ plz: string }>[];
  const geometries = objects.flatMap((o) => o.geometries) as (GeometryCollection<{ plz: string }>['geometries'][number] & { properties: { plz: string } })[];
  return {
    codes: new Set(geometries.map((g) => g.properties.plz)),
    areasOf: (codes) => {
      const wanted = geometries.filter((g) => codes.has(g.properties.plz) && (g.type === 'Polygon' || g.type === 'MultiPolygon'));
      const collection = feature(topology, { type: 'GeometryCollection', geometries: wanted });
      return collection.features.map((f) => ({ plz: f.properties!.plz, geometry: f.geometry as Area }));
    },
  };
}

/**
 * A map file's JSON: JSON.parse, since the line-keeping reader of the curated files (json.ts) would take seconds over
 * megabytes of coordinates, and a duplicate key cannot move an area.
 */
function jsonOf(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SourceError(file, 0, 'json', (error as Error).message);
  }
}

/** The attribute that names a part, and the one that numbers it, in the files of the bundle (docs/data.md, rule 16). */
const NAME_FIELDS = ['name', 'STT_NAME', 'bezeichnun'];
const CODE_FIELDS = ['ref', 'STT_NR', 'stbeznr'];

/** A file of the bundle as the readers get it. */
export interface BundleBytes {
  path: string;
  bytes: Buffer;
}

/**
 * The parts of one city from its files: each shapefile (`.shp` with its `.dbf`, Windows-1252, and `.prj`), GeoJSON
 * feature collection or EsriJSON file is a set of named parts; a GeoJSON geometry collection is one part, named by its
 * file ("501_altstadt.json": Altstadt, number 501).
 */
export async function readPartAreas(files: BundleBytes[]): Promise<PartArea[]> {
  const parts: PartArea[] = [];
  for (const file of files) {
    if (file.path.endsWith('.dbf') || file.path.endsWith('.prj')) continue;
    if (file.path.endsWith('.shp')) {
      parts.push(...await readShapefile(file, companion(files, file.path, '.dbf'), companion(files, file.path, '.prj')));
      continue;
    }
    const value = jsonOf(file.bytes.toString('utf8'), file.path) as Record<string, unknown>;
    if (Array.isArray(value.features) && 'geometryType' in value) parts.push(...esriParts(value, file.path));
    else if (value.type === 'FeatureCollection') parts.push(...(value.features as Feature[]).map((f) => part(f.properties ?? {}, f.geometry, file.path, (p) => p)));
    else if (value.type === 'GeometryCollection') parts.push(collectionPart(value as unknown as { geometries: Geometry[] }, file.path));
    else throw new SourceError(file.path, 0, 'type', `expected a GeoJSON or EsriJSON file, got ${JSON.stringify(value.type)}`);
  }
  return parts;
}

/** The `.dbf` or `.prj` beside a shapefile, which the manifest must list too. */
export function companion(files: BundleBytes[], shp: string, extension: string): BundleBytes {
  const path = shp.replace(/\.shp$/, extension);
  const found = files.find((f) => f.path === path);
  if (found === undefined) throw new SourceError(shp, 0, 'path', `the manifest lists no ${path} beside it, of the same kind`);
  return found;
}

/** Every record of a shapefile, its attributes read as Windows-1252 (the city files have no `.cpg`). */
export async function shapefileRecords(shp: BundleBytes, dbf: BundleBytes): Promise<Feature[]> {
  const collection = await shapefile.read(shp.bytes, dbf.bytes, { encoding: 'windows-1252' });
  return collection.features;
}

async function readShapefile(shp: BundleBytes, dbf: BundleBytes, prj: BundleBytes): Promise<PartArea[]> {
  const toWgs84 = projectionOf(prj.bytes.toString('utf8'), prj.path);
  return (await shapefileRecords(shp, dbf)).map((f) => part(f.properties ?? {}, f.geometry, shp.path, toWgs84));
}

function esriParts(value: Record<string, unknown>, file: string): PartArea[] {
  const wkid = (value.spatialReference as { wkid?: number } | undefined)?.wkid;
  const definition = wkid === undefined ? undefined : KNOWN_WKIDS[wkid];
  if (definition === undefined) throw new SourceError(file, 0, 'spatialReference', `the build reads only ${Object.keys(KNOWN_WKIDS).join(', ')}, got ${wkid}`);
  return (value.features as { attributes: Record<string, unknown>; geometry: unknown }[])
    .map((f) => part(f.attributes, arcgisToGeoJSON(f.geometry), file, fromUtm32));
}

function collectionPart(value: { geometries: Geometry[] }, file: string): PartArea {
  const named = /(?:^|\/)(\d+)_([^/]+)\.json$/.exec(file);
  if (named === null || value.geometries.length !== 1) throw new SourceError(file, 0, 'geometries', 'expected one geometry in a file named <number>_<name>.json');
  return part({ name: named[2]!, ref: named[1]! }, value.geometries[0]!, file, (p) => p);
}

function part(attributes: Record<string, unknown>, geometry: Geometry | null, file: string, toWgs84: ToWgs84): PartArea {
  const name = NAME_FIELDS.map((f) => attributes[f]).find((v) => typeof v === 'string' && v.trim() !== '') as string | undefined;
  if (name === undefined) throw new SourceError(file, 0, NAME_FIELDS.join('|'), `a part without a name: ${JSON.stringify(attributes)}`);
  const code = CODE_FIELDS.map((f) => attributes[f]).find((v) => typeof v === 'string' && v.trim() !== '') as string | undefined;
  if (geometry === null || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')) {
    throw new SourceError(file, 0, 'geometry', `${name}: expected a polygon, got ${geometry?.type ?? 'none'}`);
  }
  return { name: name.trim(), code: code?.trim() ?? null, geometry: projected(geometry, toWgs84), file };
}

function projected(geometry: Area, toWgs84: ToWgs84): Area {
  const ring = (r: Position[]) => r.map(toWgs84);
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: geometry.coordinates.map(ring) }
    : { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => p.map(ring)) };
}
