// A JSON reader that remembers on which line each array element and object member starts, so that a record
// refused by its schema, and not only a syntax error, names its line; and that refuses a key given twice, which
// JSON.parse keeps silently (the last one wins). JSON.parse names the position of a syntax error only, and the
// line of no value.
import { SourceError } from './errors.ts';

export type JsonDocument = {
  value: unknown;
  /** The line where the value at `path` starts, or that of its deepest ancestor the path still reaches. */
  lineAt(path: readonly PropertyKey[]): number;
};

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;

/** Parses `text` as strict JSON (RFC 8259), rejecting duplicate keys, which JSON.parse would silently merge. */
export function parseJson(text: string, file: string): JsonDocument {
  const memberLines = new WeakMap<object, Map<PropertyKey, number>>();
  let position = 0;
  let line = 1;

  const fail = (reason: string): never => {
    throw new SourceError(file, line, 'json', reason);
  };
  const found = () => (position < text.length ? JSON.stringify(text[position]) : 'end of input');
  const skipWhitespace = () => {
    for (; position < text.length; position++) {
      const character = text[position];
      if (character === '\n') line++;
      else if (character !== ' ' && character !== '\t' && character !== '\r') return;
    }
  };
  const token = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = position;
    const match = pattern.exec(text)?.[0];
    if (match !== undefined) position += match.length;
    return match;
  };
  /** Consumes the next character if it is one of `expected` and returns it. */
  const punctuation = <P extends string>(...expected: P[]): P => {
    skipWhitespace();
    const character = text[position] as P;
    if (!expected.includes(character)) fail(`expected ${expected.map((p) => `"${p}"`).join(' or ')}, got ${found()}`);
    position++;
    return character;
  };

  const string = (): string => {
    const literal = token(STRING);
    // The whole literal is valid JSON here, so JSON.parse only decodes its escapes.
    return literal === undefined ? fail('unterminated string or invalid escape or control character') : JSON.parse(literal);
  };

  const array = (): unknown[] => {
    const items: unknown[] = [];
    const lines = new Map<PropertyKey, number>();
    memberLines.set(items, lines);
    punctuation('[');
    skipWhitespace();
    if (text[position] === ']') {
      position++;
      return items;
    }
    do {
      skipWhitespace();
      lines.set(items.length, line);
      items.push(value());
    } while (punctuation(',', ']') === ',');
    return items;
  };

  const object = (): Record<string, unknown> => {
    const members: Record<string, unknown> = {};
    const lines = new Map<PropertyKey, number>();
    memberLines.set(members, lines);
    punctuation('{');
    skipWhitespace();
    if (text[position] === '}') {
      position++;
      return members;
    }
    do {
      skipWhitespace();
      if (text[position] !== '"') fail(`expected a key, got ${found()}`);
      const keyLine = line;
      const key = string();
      if (lines.has(key)) fail(`duplicate key ${JSON.stringify(key)}`);
      punctuation(':');
      lines.set(key, keyLine);
      // defineProperty keeps "__proto__" an ordinary key, as JSON.parse does.
      Object.defineProperty(members, key, { value: value(), enumerable: true, writable: true, configurable: true });
    } while (punctuation(',', '}') === ',');
    return members;
  };

  const value = (): unknown => {
    skipWhitespace();
    const character = text[position];
    if (character === '{') return object();
    if (character === '[') return array();
    if (character === '"') return string();
    const literal = token(LITERAL);
    if (literal !== undefined) return literal === 'null' ? null : literal === 'true';
    const number = token(NUMBER);
    return number === undefined ? fail(`unexpected ${found()}`) : Number(number);
  };

  skipWhitespace();
  const rootLine = line;
  const root = value();
  skipWhitespace();
  if (position < text.length) fail(`unexpected ${found()} after the end of the document`);

  return {
    value: root,
    lineAt(path) {
      let node: unknown = root;
      let nodeLine = rootLine;
      for (const key of path) {
        const memberLine = typeof node === 'object' && node !== null ? memberLines.get(node)?.get(key) : undefined;
        if (memberLine === undefined) break;
        nodeLine = memberLine;
        node = (node as Record<PropertyKey, unknown>)[key];
      }
      return nodeLine;
    },
  };
}
