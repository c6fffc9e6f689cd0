//! The error for a log, exec or attach stream the server closed before it was complete.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * The server (or the connection) closed an exec, attach or port-forward WebSocket before
 * the command's exit status came, or a log stream broke mid-way. `code` and `closeReason`
 * are the WebSocket close frame's, when one came.
 */
export class StreamClosedError extends CtrlkitError {
  readonly reason = 'StreamClosed' as const;
  /** The WebSocket close code (1006: the connection dropped without a close frame). */
  readonly code: number | undefined;
  /** The close frame's reason text ('' when none). */
  readonly closeReason: string;

  constructor(
    message: string,
    options: { code?: number; closeReason?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = options.code;
    this.closeReason = options.closeReason ?? '';
  }
}
