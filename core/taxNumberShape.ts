// A tax number is personal data wherever it is sent, also where none belongs: in the path (`/finanzamt/<number>`),
// as an `ags`, as an `ort`. Ten or more digits, with the separators a written tax number has (also as they look
// encoded in an address), are taken for one: no municipality key (8), postal code (5), office number (4) or other
// number of this interface is that long.
const SHAPE = '\\d(?:(?:[ /.-]|%20|%2[Ff])?\\d){9,}';
const ONE = new RegExp(SHAPE);
const EVERY = new RegExp(SHAPE, 'g');

export function holdsTaxNumberShape(text: string): boolean {
  return ONE.test(text);
}

/** `text` with every run shaped like a tax number replaced by `…`. */
export function maskTaxNumbers(text: string): string {
  return text.replace(EVERY, '…');
}
