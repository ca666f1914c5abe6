// Structured logs through pino: one line per request (the access log) and the proxy's own events. Lines are
// collected and handed to pino's asynchronous destination in batches: measured here, a line costs about
// 1 µs that way, against 4 µs when each goes to the destination (or through pino's formatting) on its own.
// The access line has a fixed shape, so it is built here, in pino's line format, from as few pieces as possible:
// what it shows of a URL once per URL (accessFields, kept with the URL in proxy/cache/askedQuestions.ts), the time
// once per millisecond, the milliseconds from whole numbers. Two ways that cost more, measured: each line written
// byte by byte into a buffer (more instructions than V8 and Node spend concatenating, joining and encoding, which
// copy whole strings at a time), and batches of 64 KiB (more lines alive through each young-generation
// collection, which then takes longer). What a line may contain is decided here: the path and the canonical
// question, never the raw query string or a header, so no access key can reach the log even when a caller puts
// one in the URL. A batch (proxy/batch/) is one line with the number of its questions and none of them: a question
// may hold something personal, such as a tax number.
import pino, { type Logger } from 'pino';
import type { Exchange } from './http/exchange.ts';
import { loggable } from '../core/request.ts';
import { logDestination } from './logDestination.ts';

export type AccessLog = (ex: Exchange, status: number, bytes: number) => void;

export interface Logs {
  logger: Logger;
  access: AccessLog;
  /** Writes out what is buffered; for shutdown. */
  flush(): void;
  /** Lines dropped because the log could not be written (logDestination.ts). */
  dropped(): number;
  /** Opens the log file again under its name, after logrotate moved it away (SIGHUP); nothing for stdout. */
  reopen(): void;
}

const BATCH_CHARS = 16 * 1024;
const BATCH_MS = 200;

/** Logs to `file` (appended), or to stdout when none is given; a log that cannot be written drops lines. */
export function createLogs(file?: string): Logs {
  const destination = logDestination(file);
  const batch = new Batch(destination);
  // Events go through the same batch as access lines, so the log keeps the order in which things happened.
  const logger = pino({ base: { pid: process.pid } }, batch);
  // pino's general path (bindings, serializers, hooks) costs more than the rest of a request.
  const head = `{"level":30,"pid":${process.pid},"msg":"request","time":`;
  let millisecond = -1;
  let opening = '';
  const access: AccessLog = (ex, status, bytes) => {
    const now = Date.now();
    if (now !== millisecond) {
      millisecond = now;
      opening = `${head}${now},"address":`;
    }
    // Node's parser names the method with one of its own upper-case tokens (http.METHODS): nothing to escape.
    batch.write(`${opening}${jsonString(ex.address)},"method":"${ex.req.method ?? ''}",${ex.logged ?? accessFields(loggable(ex.path), ex.canonicalKey)},`
      + `"key":${ex.keyId === null ? 'null' : jsonString(ex.keyId)},"status":${status},"bytes":${bytes},"ms":${hundredths(performance.now() - ex.started)}`
      + `${ex.questions === null ? '' : `,"questions":${ex.questions}`}}\n`);
  };
  const flush = () => {
    batch.flush();
    try {
      destination.flushSync();
    } catch {
      // The file is not open yet (a stop right after the start), or it takes no more (a full disk): what is
      // left is lost, and the process ends all the same.
    }
  };
  // Also when the process ends some other way (a crash), the last lines are the ones most wanted.
  process.once('exit', flush);
  return {
    logger,
    access,
    flush: () => {
      batch.stop();
      flush();
    },
    dropped: () => destination.dropped,
    reopen: () => {
      batch.flush();
      destination.reopen();
    },
  };
}

class Batch {
  private lines: string[] = [];
  private chars = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly destination: { write(text: string): unknown };

  constructor(destination: { write(text: string): unknown }) {
    this.destination = destination;
    this.timer = setInterval(() => this.flush(), BATCH_MS);
    this.timer.unref();
  }

  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= BATCH_CHARS) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    this.destination.write(this.lines.join(''));
    this.lines = [];
    this.chars = 0;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * The path and the question of an access line, as its JSON members; both already as a log may show them
 * (core/request.ts, loggable).
 */
export function accessFields(path: string, question: string | null): string {
  return `"path":${jsonString(path)},"question":${question === null ? 'null' : jsonString(question)}`;
}

/** Milliseconds to two decimals (`0.07`, `12.50`), from whole numbers: formatting a fraction costs more. */
function hundredths(ms: number): string {
  const h = Math.round(ms * 100);
  const fraction = h % 100;
  return `${(h - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/** What JSON.stringify would escape in a string: quotes, backslashes, control characters, lone surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as JSON. Nearly every value here (addresses, canonical questions) needs no escaping, and testing for
 * that costs less than escaping: measured, a whole line went from 1.1 µs to 0.4 µs.
 */
function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}
