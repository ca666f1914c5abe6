// Rule 5 (docs/data.md): offices of one city may be said to divide its cases "nach Aufgaben" only where the words
// in which their names differ are words of a task (München Gewinneinkünfte / München Überschusseinkünfte). A
// Roman numeral (Leipzig I / II, Stuttgart I / II / IV) or a part of the city (Nord, Süd, Mitte, Altstadt) names
// no task: such offices may divide the city by Stadtbezirk, as Leipzig's do, and the names do not say so.

/**
 * The words that name a task of an office for residents, as the office lists spell them, abbreviations included.
 * Not the special tasks of rule 5's exclusions (build/assemble/officeKinds.ts): those offices serve no resident
 * and are never added to a city.
 */
const TASK_WORDS = new Set(['gewinneinkünfte', 'überschusseinkünfte', 'arbeitnehmerbereich', 'körperschaften', 'körpersch.']);

/** The words of an office name; a hyphen joins a city to its part ("Köln-Süd"), so it separates words here. */
function wordsOf(name: string): string[] {
  return name.split(/[\s-]+/u).filter(Boolean);
}

/**
 * Where the offices' names split the cases by task: each office's differing words (what follows the words all
 * names share), in the order given; null when any of them is empty or holds a word that names no task.
 */
export function taskSplit(officeNames: string[]): string[] | null {
  const words = officeNames.map(wordsOf);
  let shared = 0;
  while (words.every((w) => shared < w.length && w[shared] === words[0]![shared])) shared++;
  const differing = words.map((w) => w.slice(shared));
  const tasks = differing.every((w) => w.length > 0 && w.every((word) => TASK_WORDS.has(word.toLowerCase())));
  return tasks ? differing.map((w) => w.join(' ')) : null;
}
