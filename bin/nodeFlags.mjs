// FINANZAMT_NODE_FLAGS: node flags wanted where the running node knows them. NODE_OPTIONS can hold only flags that
// every Node version it meets takes, since node refuses to start with one it does not know: Node 22 refuses
// --no-async-context-frame (which only Node 24 needs, its AsyncContextFrame being on), Node 22.13 and older refuse
// --disable-sigusr1. The systemd unit names such flags here; the finanzamt command, before anything else, moves the
// ones the running node knows into NODE_OPTIONS and runs itself again in place (process.execve: the same pid, which
// systemd keeps following), so that its --workers' processes get them too. Plain JavaScript, loaded before tsx.

/** The flags of `wanted` (space-separated) that this node takes in NODE_OPTIONS. */
export function knownNodeFlags(wanted) {
  return wanted.split(/\s+/).filter((flag) => flag !== '' && process.allowedNodeEnvironmentFlags.has(flag.split('=')[0]));
}

/** Runs this command again with the known FINANZAMT_NODE_FLAGS in NODE_OPTIONS; returns only when there are none. */
export function applyNodeFlags() {
  const { FINANZAMT_NODE_FLAGS: wanted, ...env } = process.env;
  if (wanted === undefined) return;
  const known = knownNodeFlags(wanted);
  if (known.length === 0) return;
  if (typeof process.execve !== 'function') {
    process.stderr.write(`finanzamt: node ${process.version} cannot run itself again (no process.execve before 22.15), so it runs without ${known.join(' ')}\n`);
    return;
  }
  env.NODE_OPTIONS = [env.NODE_OPTIONS, ...known].filter(Boolean).join(' ');
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
}
