// JSON.parse keeps the last of a member named twice and makes `__proto__` an own member that schemas then pass
// over: a question `{"ags": "1", "ags": "2"}` would be answered for one of them, where its GET is refused. The
// body's member names are read here as written (jsonc-parser's visitor; the body has passed JSON.parse first).
import { visit } from 'jsonc-parser';

export interface OddName {
  /** Where: `fragen[i]`, or null for an object outside the questions. */
  question: number | null;
  name: string;
  why: 'repeated' | 'proto';
}

/** The first member name of `json` that an object repeats or that is `__proto__`; null when there is none. */
export function oddMemberName(json: string): OddName | null {
  const open: Set<string>[] = [];
  let found: OddName | null = null;
  visit(json, {
    onObjectBegin: () => { open.push(new Set()); },
    onObjectEnd: () => { open.pop(); },
    onObjectProperty: (name, _offset, _length, _line, _column, pathSupplier) => {
      const names = open.at(-1)!;
      if (found === null && (name === '__proto__' || names.has(name))) {
        const path = pathSupplier();
        found = { question: path[0] === 'fragen' && typeof path[1] === 'number' ? path[1] : null, name, why: name === '__proto__' ? 'proto' : 'repeated' };
      }
      names.add(name);
    },
  });
  return found;
}
