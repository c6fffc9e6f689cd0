/**
 * `@ctrlkit/client/streaming`: the streams of a pod, through the one client's kubeconfig,
 * TLS and metrics.
 *
 * - {@link streamPodLogs}: a container's log, followed or not (`follow`, `sinceSeconds`,
 *   `sinceTime`, `tailLines`, `timestamps`, `previous`, `limitBytes`), as text chunks,
 *   `lines()` or `text()`; an abort ends it, a stream the server closes mid-way rejects with
 *   {@link StreamClosedError}.
 * - {@link exec} and {@link attach} over WebSocket (`v5.channel.k8s.io`, else
 *   `v4.channel.k8s.io`, as kubectl since 1.31): stdin (closed with v5's CLOSE), stdout,
 *   stderr, resize, and the exit status ({@link ExecResult}; a non-zero exit is a result,
 *   not an error).
 * - {@link portForward}: one connection to a pod's port, as a Duplex.
 * - The channel framing ({@link encodeFrame}, {@link decodeFrame}, {@link StreamChannel},
 *   {@link parseExecStatus}) for a server that speaks it, as a kubelet does.
 *
 * ```ts
 * import { createClient, loadKubeConfig } from '@ctrlkit/client';
 * import { exec } from '@ctrlkit/client/streaming';
 *
 * const client = createClient(loadKubeConfig());
 * const result = await exec(client, 'default', 'web', ['date']);
 * console.log(result.stdout, result.exitCode);
 * ```
 *
 * @packageDocumentation
 */

export { StreamClosedError } from './errors/stream-closed-error.js';
export { type PodLogOptions, PodLogStream, streamPodLogs } from './pod-logs.js';
export {
  type ChannelFrame,
  closedChannel,
  decodeFrame,
  encodeCloseFrame,
  encodeFrame,
  encodeResizeFrame,
  STREAM_PROTOCOL_V4,
  STREAM_PROTOCOL_V5,
  STREAM_PROTOCOLS,
  StreamChannel,
  type TerminalSize,
} from './remote-command/channel-protocol.js';
export { attach, type ExecOptions, type ExecOutput, exec } from './remote-command/exec.js';
export {
  EXIT_CODE_CAUSE_TYPE,
  type ExecResult,
  NON_ZERO_EXIT_CODE_REASON,
  parseExecStatus,
} from './remote-command/exec-status.js';
export { type PortForwardOptions, portForward } from './remote-command/port-forward.js';
