// Which of a set of areas holds a point: flatbush narrows the areas to those whose bounding box holds it, and
// @turf/boolean-point-in-polygon decides. Built once per set of areas (a city's parts, its postal codes).
import bbox from '@turf/bbox';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import Flatbush from 'flatbush';
import type { Position } from 'geojson';
import type { Area } from '../../sources/geoAreas.ts';

export class Locator<T extends { geometry: Area }> {
  readonly #items: T[];
  readonly #index: Flatbush | null;

  constructor(items: T[]) {
    this.#items = items;
    // Flatbush wants at least one box; with none, nothing is ever found.
    this.#index = items.length === 0 ? null : new Flatbush(items.length);
    if (this.#index === null) return;
    for (const item of items) {
      const [minX, minY, maxX, maxY] = bbox(item.geometry);
      this.#index.add(minX, minY, maxX, maxY);
    }
    this.#index.finish();
  }

  /** The first area holding `point`, or null. */
  locate(point: Position): T | null {
    if (this.#index === null) return null;
    for (const i of this.#index.search(point[0]!, point[1]!, point[0]!, point[1]!)) {
      if (booleanPointInPolygon(point, this.#items[i]!.geometry)) return this.#items[i]!;
    }
    return null;
  }

  /** The areas whose bounding box meets `area`'s: the candidates for an intersection. */
  near(area: Area): T[] {
    if (this.#index === null) return [];
    const [minX, minY, maxX, maxY] = bbox(area);
    return this.#index.search(minX, minY, maxX, maxY).map((i) => this.#items[i]!);
  }
}
