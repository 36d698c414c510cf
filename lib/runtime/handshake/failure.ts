/** A fatal handshake outcome: the exit code (lib/core/handshake-contract.ts) and a one-line reason. */
export class HandshakeFailure extends Error {
  constructor(readonly exitCode: number, message: string) {
    super(message);
    this.name = 'HandshakeFailure';
  }
}
