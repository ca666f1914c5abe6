// Loaded with `node --import`: this process's clock reads FINANZAMT_TEST_CLOCK_AHEAD_MS ahead of the machine's, as a
// machine's whose clock is set wrong does. Only Date moves: timers and performance.now measure intervals, which a
// wrong clock does not change.
const ahead = Number(process.env.FINANZAMT_TEST_CLOCK_AHEAD_MS ?? 0);
const MachineDate = Date;

class AheadDate extends MachineDate {
  constructor(...args) {
    if (args.length === 0) super(MachineDate.now() + ahead);
    else super(...args);
  }

  static now() {
    return MachineDate.now() + ahead;
  }
}

globalThis.Date = AheadDate;
