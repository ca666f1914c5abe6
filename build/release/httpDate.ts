// HTTP dates as RFC 9110 (section 5.6.7) defines them, parsed strictly: the preferred IMF-fixdate and the two
// obsolete forms a recipient must still accept. `new Date(text)` takes far more ("2025-12-02", "12/2/25") and
// throws "Invalid time value" on what it cannot read, naming nothing.
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const LONG_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const day = `(${DAYS.join('|')})`;
const month = `(${MONTHS.join('|')})`;
const time = '(\\d{2}):(\\d{2}):(\\d{2})';
/** Sun, 06 Nov 1994 08:49:37 GMT */
const IMF_FIXDATE = new RegExp(`^${day}, (\\d{2}) ${month} (\\d{4}) ${time} GMT$`);
/** Sunday, 06-Nov-94 08:49:37 GMT */
const RFC_850 = new RegExp(`^(${LONG_DAYS.join('|')}), (\\d{2})-${month}-(\\d{2}) ${time} GMT$`);
/** Sun Nov  6 08:49:37 1994 */
const ASCTIME = new RegExp(`^${day} ${month} ([ \\d]\\d) ${time} (\\d{4})$`);

/** The date `text` names, or null when it is no HTTP date or names a day that does not exist. */
export function parseHttpDate(text: string): Date | null {
  let m = IMF_FIXDATE.exec(text);
  if (m) return validDate(+m[4]!, m[3]!, +m[2]!, +m[5]!, +m[6]!, +m[7]!);
  m = RFC_850.exec(text);
  // A two-digit year more than 50 years ahead is in the past century (RFC 9110).
  if (m) return validDate(twoDigitYear(+m[4]!), m[3]!, +m[2]!, +m[5]!, +m[6]!, +m[7]!);
  m = ASCTIME.exec(text);
  if (m) return validDate(+m[7]!, m[2]!, +m[3]!.trim(), +m[4]!, +m[5]!, +m[6]!);
  return null;
}

function twoDigitYear(yy: number): number {
  const now = new Date().getUTCFullYear();
  const year = Math.floor(now / 100) * 100 + yy;
  return year > now + 50 ? year - 100 : year;
}

function validDate(year: number, monthName: string, dayOfMonth: number, hours: number, minutes: number, seconds: number): Date | null {
  const monthIndex = MONTHS.indexOf(monthName);
  if (hours > 23 || minutes > 59 || seconds > 60) return null;
  const date = new Date(Date.UTC(year, monthIndex, dayOfMonth, hours, minutes, Math.min(seconds, 59)));
  return date.getUTCDate() === dayOfMonth && date.getUTCMonth() === monthIndex ? date : null;
}
