/** Something the tests need that this machine lacks and `npm test` could not install: its message says how to. */
export class MissingPrerequisite extends Error {}
