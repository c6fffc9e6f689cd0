import { afterEach, describe, expect, it, vi } from 'vitest';
import { stderrLogger } from './logger.js';

describe('stderrLogger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes info, warn and error lines with the context as key=value, drops debug', () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    stderrLogger.debug({}, 'hidden');
    stderrLogger.info({}, 'started');
    stderrLogger.warn({ port: 6443 }, 'port taken');
    stderrLogger.error({ binary: 'etcd' }, 'exited');
    expect(lines).toEqual([
      '[envtest] started\n',
      '[envtest] warning: port taken port=6443\n',
      '[envtest] error: exited binary="etcd"\n',
    ]);
  });
});
