import { Readable } from 'stream';

/** Calls `onLine` with each complete line of `stream` (the program logs one JSON object per line). */
export function onLines(stream: Readable, onLine: (text: string) => void): void {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const text = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      onLine(text);
    }
  });
}
