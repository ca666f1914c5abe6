// Rule 10 (docs/data.md): the announced changes a version carries. A notice may name the data version from which
// the sources carry the change themselves (`bis_stand`); versions of that date or later leave it out, and the
// report says so, so that a notice ends with the month that makes it obsolete rather than by hand.
import type { SourceNotice } from '../sources/notices.ts';

export interface ExpiredNotice {
  id: string;
  bis_stand: string;
}

/** `versionDate`: the version's data date, YYYY-MM-DD. */
export function activeNotices(notices: SourceNotice[], versionDate: string): { notices: SourceNotice[]; expired: ExpiredNotice[] } {
  const ended = (n: SourceNotice) => n.bis_stand !== undefined && n.bis_stand <= versionDate;
  return {
    notices: notices.filter((n) => !ended(n)),
    expired: notices.filter(ended).map((n) => ({ id: n.id, bis_stand: n.bis_stand! })),
  };
}
