// The heap of a proxy started with `node --inspect=127.0.0.1:0`, read through its inspector after full garbage
// collection: what the process really holds, which its resident size (grown and kept by V8 at will) does not say.
import WebSocket from 'ws';
import type { ProxyProcess } from './proxy.ts';

/** What the inspector answers to a call (only the parts read here). */
interface Answer {
  id?: number;
  result?: { result?: { value?: unknown } };
}

export const INSPECT = '--inspect=127.0.0.1:0';

/** MB of heap in use once everything unreachable is collected. */
export async function heapAfterGc(proxy: ProxyProcess): Promise<number> {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(proxy.output())?.[1];
  if (url === undefined) throw new Error(`the proxy was not started with ${INSPECT}`);
  return heapAfterGcAt(url);
}

/** The same for the process whose inspector listens at the WebSocket `url`. */
export async function heapAfterGcAt(url: string): Promise<number> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id = 0;
  const call = (method: string, params: object = {}) => new Promise<Answer>((resolve) => {
    const mine = ++id;
    const answer = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as Answer;
      if (message.id !== mine) return;
      ws.off('message', answer);
      resolve(message);
    };
    ws.on('message', answer);
    ws.send(JSON.stringify({ id: mine, method, params }));
  });
  try {
    // Twice: the first collection can leave garbage that only a second one finds (weak references, finalizers).
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const used = await call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
    return Math.round(Number(used.result?.result?.value) / 1024 / 1024 * 10) / 10;
  } finally {
    ws.close();
  }
}
