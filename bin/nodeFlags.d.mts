// The types of nodeFlags.mjs, which is plain JavaScript so that it runs before tsx is loaded.
export function knownNodeFlags(wanted: string): string[];
export function applyNodeFlags(): void;
