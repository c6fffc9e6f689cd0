import { describe, expect, it } from 'vitest';
import { ContainerLog, LOG_BUFFER_BYTES } from './container-log.js';

describe('ContainerLog', () => {
  it('reads everything, the last N lines, or what was written in the last N seconds', () => {
    const log = new ContainerLog();
    log.write(Buffer.from('a1\na2\n'), 1_000);
    log.write(Buffer.from('b1\nb2\n'), 9_000);
    expect(log.read({}, 10_000)).toBe('a1\na2\nb1\nb2\n');
    expect(log.read({ tailLines: 3 }, 10_000)).toBe('a2\nb1\nb2\n');
    expect(log.read({ tailLines: 0 }, 10_000)).toBe('');
    expect(log.read({ sinceSeconds: 5 }, 10_000)).toBe('b1\nb2\n');
    expect(log.read({ sinceSeconds: 5, tailLines: 1 }, 10_000)).toBe('b2\n');
  });

  it('followers get each new chunk and are ended with the run', () => {
    const log = new ContainerLog();
    const seen: string[] = [];
    let ended = false;
    log.follow(
      (text) => seen.push(text),
      () => {
        ended = true;
      },
    );
    log.write(Buffer.from('x\n'), 0);
    log.end();
    expect(seen).toEqual(['x\n']);
    expect(ended).toBe(true);
    let late = false;
    log.follow(
      () => {},
      () => {
        late = true;
      },
    );
    expect(late).toBe(true);
  });

  it(`keeps the last ${LOG_BUFFER_BYTES} bytes`, () => {
    const log = new ContainerLog();
    log.write(Buffer.alloc(LOG_BUFFER_BYTES, 'a'), 0);
    log.write(Buffer.from('end\n'), 1);
    expect(log.read({}, 2)).toBe('end\n');
  });
});
