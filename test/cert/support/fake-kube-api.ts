/**
 * A fake Kubernetes API server over HTTPS on 127.0.0.1 that records every request and answers
 * from a per-test route table.
 */
import * as https from 'https';
import { AddressInfo } from 'net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization?: string;
  readonly contentType?: string;
  readonly body?: unknown;
}

export interface FakeResponse {
  readonly status: number;
  readonly body?: unknown;
}

/** Answers `METHOD path`; return undefined to never answer (hang). */
export type Responder = (request: RecordedRequest) => FakeResponse | undefined;

export class FakeKubeApi {
  public static async start(key: Buffer, cert: Buffer, responder: Responder): Promise<FakeKubeApi> {
    const api = new FakeKubeApi(key, cert, responder);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    return api;
  }

  public readonly requests: RecordedRequest[] = [];
  private readonly server: https.Server;

  private constructor(key: Buffer, cert: Buffer, private readonly responder: Responder) {
    this.server = https.createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization,
          contentType: req.headers['content-type'],
          body: text === '' ? undefined : JSON.parse(text),
        };
        this.requests.push(recorded);
        const answer = this.responder(recorded);
        if (!answer) return; // leave the request hanging
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      });
    });
    // TLS handshake failures (the client rejecting our certificate) are expected in some tests.
    this.server.on('tlsClientError', () => undefined);
  }

  public get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  public async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A Kubernetes Status body. */
export function status(code: number, reason: string, message: string): FakeResponse {
  return { status: code, body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code } };
}
