//! The structured logger every ctrlkit package writes to; pino satisfies it.

export { type Logger, noopLogger } from '@ctrlkit/core';
