// The heap of a proxy started with `node --inspect=127.0.0.1:0`, read through its inspector after full garbage
// collection: what the process really holds, which its resident size (grown and kept by V8 at will) does not say.
import WebSocket from 'ws';
import type { ProxyProcess } from './proxy.ts';

/** What the inspector sends: answers to calls and events (only the parts read here). */
interface Message {
  id?: number;
  method?: string;
  params?: { chunk?: string };
  result?: { result?: { value?: unknown } };
}

export const INSPECT = '--inspect=127.0.0.1:0';

function inspectorUrl(proxy: ProxyProcess): string {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(proxy.output())?.[1];
  if (url === undefined) throw new Error(`the proxy was not started with ${INSPECT}`);
  return url;
}

/** MB of heap in use once everything unreachable is collected. */
export async function heapAfterGc(proxy: ProxyProcess): Promise<number> {
  return heapAfterGcAt(inspectorUrl(proxy));
}

/** The same for the process whose inspector listens at the WebSocket `url`. */
export async function heapAfterGcAt(url: string): Promise<number> {
  return inspected(url, async (call) => {
    await collectAll(call);
    const used = await call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
    return Math.round(Number(used.result?.result?.value) / 1024 / 1024 * 10) / 10;
  });
}

/**
 * Which of `needles` the heap of `proxy` holds once everything unreachable is collected: its heap snapshot,
 * searched as it streams in, so that a snapshot of any size is never held whole.
 */
export async function heapHolds(proxy: ProxyProcess, needles: string[]): Promise<string[]> {
  const found = new Set<string>();
  const overlap = Math.max(...needles.map((n) => n.length)) - 1;
  let tail = '';
  await inspected(inspectorUrl(proxy), async (call, on) => {
    await collectAll(call);
    on('HeapProfiler.addHeapSnapshotChunk', (m) => {
      const text = tail + (m.params?.chunk ?? '');
      for (const needle of needles) if (text.includes(needle)) found.add(needle);
      tail = text.slice(-overlap);
    });
    await call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  });
  return [...found];
}

type Call = (method: string, params?: object) => Promise<Message>;
type On = (method: string, listener: (message: Message) => void) => void;

async function inspected<T>(url: string, use: (call: Call, on: On) => Promise<T>): Promise<T> {
  const ws = new WebSocket(url, { maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id = 0;
  const call: Call = (method, params = {}) => new Promise<Message>((resolve) => {
    const mine = ++id;
    const answer = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as Message;
      if (message.id !== mine) return;
      ws.off('message', answer);
      resolve(message);
    };
    ws.on('message', answer);
    ws.send(JSON.stringify({ id: mine, method, params }));
  });
  const on: On = (method, listener) => ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Message;
    if (message.method === method) listener(message);
  });
  try {
    return await use(call, on);
  } finally {
    ws.close();
  }
}

/** Twice: the first collection can leave garbage that only a second one finds (weak references, finalizers). */
async function collectAll(call: Call): Promise<void> {
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
}
