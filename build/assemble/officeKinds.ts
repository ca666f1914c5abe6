// What an office's number and name tell about it: the state its number belongs to (rule 3) and whether it is
// a special-task office or a branch, which never serves residents of a city (rules 4 and 5).

/** Office-number prefix → two-digit Land key of GV100AD (docs/data.md, rule 3). */
const PREFIX_TO_LAND: [prefix: string, land: string][] = [
  ['10', '10'], ['11', '11'], ['21', '01'], ['22', '02'], ['23', '03'], ['24', '04'], ['26', '06'],
  ['27', '07'], ['28', '08'], ['30', '12'], ['31', '15'], ['32', '14'], ['40', '13'], ['41', '16'],
  ['5', '05'], ['9', '09'],
];

/** The Land key an office number belongs to, or null for a number outside every known range. */
export function landOfOfficeNumber(bufaNr: string): string | null {
  return PREFIX_TO_LAND.find(([prefix]) => bufaNr.startsWith(prefix))?.[1] ?? null;
}

/**
 * Words in an office name that mark a special task or an administrative unit, as the sources spell them,
 * abbreviations included ("Körpersch.", "Verkehrst.", "Prüfungsd.", "Erb/Schenk.St.").
 */
const TASKS = [
  'Körpersch', 'Betriebsprüfung', 'Konzernprüfung', 'Großunternehmen', 'Außenprüfung',
  'Fahndung', 'Strafsachen', 'Finanzkriminalität', 'Grundbesitz', 'Grunderwerbsteuer',
  // Also as a word's ending: "Grundstücksbewertung" (rule 5b).
  'Bewertung', 'Verkehrst', 'Erbschaft', 'Erb/Schenk', 'Erhebung', 'Rentenempfänger im Ausland',
  '\\bRIA\\b', '\\bRAB\\b', 'International', 'Technisches Finanzamt', 'Prüfungsd',
  'Bundeszentralamt', 'Landesamt',
  // A cash office (Landeshauptkasse, Landesfinanzkasse, …) serves no resident; "Kassel" is a city, not one.
  '\\p{L}*kasse(?!\\p{L})',
];
/** A branch of another office; it may serve residents of its own district, but is never added to a city. */
const BRANCH = 'Außenstelle';

const TASK = new RegExp(TASKS.join('|'), 'iu');
const TASK_OR_BRANCH = new RegExp([...TASKS, BRANCH].join('|'), 'iu');

/** The word that marks a special task or a branch, which never serves the residents of a city (rules 4b, 5). */
export function specialTaskOf(name: string): string | null {
  return TASK_OR_BRANCH.exec(name)?.[0] ?? null;
}

/** The word that marks a special task (not a branch): such an office should serve no resident at all. */
export function taskOf(name: string): string | null {
  return TASK.exec(name)?.[0] ?? null;
}
