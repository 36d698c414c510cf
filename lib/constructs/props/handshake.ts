/** Props of the hosts handshake that runs in every pod before Flux (see docs/handshake.md). */
import { HandshakeMode } from '../../core/handshake-contract';

export { HandshakeMode } from '../../core/handshake-contract';

/** The hosts handshake. */
export interface HandshakeOptions {
  /** Run the handshake. Without it, brokers reach their parent by DNS name and wait on their own. @default true */
  readonly enabled?: boolean;
  /**
   * How a pod finds rank 0's directory.
   * @default - HandshakeMode.RENDEZVOUS from Kubernetes 1.28 (it needs the job-completion-index pod label), HandshakeMode.DNS before
   */
  readonly mode?: HandshakeMode;
  /** Bound of the whole handshake; then the pod fails with a distinct exit code. @default 300 */
  readonly deadlineSeconds?: number;
  /** Image that runs the bundled program with node (>= 18). @default DEFAULT_NODE_IMAGE */
  readonly image?: string;
  /** TCP port of the handshake server in every pod. @default 8060 */
  readonly port?: number;
  /**
   * TCP port on which the handshake answers the Flux container's readiness probe (HTTP, from the
   * kubelet only). Used where the handshake is a native sidecar (Kubernetes 1.29 on) or runs in the
   * runner (inRunner); before 1.29 the probe runs a script in the Flux container. @default 8061
   */
  readonly readyPort?: number;
  /**
   * Run the handshake in the Flux runner container, in the background, with node from `image`
   * mounted as an image volume, instead of in a native sidecar of its own: one container fewer per
   * pod for the kubelet and the runtime to start and stop (docs/scale.md). The runner's entrypoint
   * starts it again if it crashes. It then shares the runner's CPU, memory limit (about 10 MiB) and
   * security context. Needs image volumes (Kubernetes 1.35 or newer); `image` must hold node at
   * usr/local/bin/node or usr/bin/node with its C library (musl or glibc), as Node.js images do.
   * @default - true where the Flux view is an image volume (flux.container.source image-volume), false otherwise
   */
  readonly inRunner?: boolean;
}
