// The one function of @terraformer/arcgis the build uses; the package ships no types.
declare module '@terraformer/arcgis' {
  import type { Geometry } from 'geojson';

  /** An ArcGIS JSON geometry (rings of a polygon, paths of a line, x/y of a point) as GeoJSON. */
  export function arcgisToGeoJSON(arcgis: unknown): Geometry;
}
