import { describe, expect, it } from 'vitest';
import { ApiStatusError } from '../errors/api-status-error.js';
import { parseExecStatus } from './exec-status.js';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('parseExecStatus', () => {
  it('reads Success as exit code 0', () => {
    expect(parseExecStatus(json({ metadata: {}, status: 'Success' }), 'EXEC x')).toEqual({
      exitCode: 0,
    });
  });

  it('reads NonZeroExitCode with its ExitCode cause', () => {
    const status = {
      status: 'Failure',
      message: 'command terminated with non-zero exit code: exit status 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    };
    expect(parseExecStatus(json(status), 'EXEC x')).toEqual({ exitCode: 3 });
  });

  it('throws any other Failure as an ApiStatusError with its message', () => {
    const status = {
      status: 'Failure',
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: error executing command in container: spawn nope ENOENT',
    };
    let error: unknown;
    try {
      parseExecStatus(json(status), 'EXEC /api/v1/namespaces/a/pods/b/exec');
    } catch (e) {
      error = e;
    }
    expect(ApiStatusError.isInstance(error)).toBe(true);
    expect((error as ApiStatusError).statusCode).toBe(500);
    expect((error as Error).message).toContain('spawn nope ENOENT');
  });

  it('throws for a NonZeroExitCode without a numeric code, and for text that is not JSON', () => {
    expect(() =>
      parseExecStatus(json({ status: 'Failure', reason: 'NonZeroExitCode' }), 'EXEC x'),
    ).toThrow(ApiStatusError);
    expect(() => parseExecStatus(Buffer.from('boom'), 'EXEC x')).toThrow(/boom/);
  });
});
