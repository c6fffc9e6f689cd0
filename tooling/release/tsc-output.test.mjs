import { describe, expect, it } from 'vitest';
import { tscErrors } from './tsc-output.mjs';

describe('tscErrors', () => {
  it('reads an error with a file position', () => {
    const output =
      "a/check.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n";
    expect(tscErrors(output, 2)).toEqual([
      {
        file: 'a/check.ts',
        line: 3,
        code: 'TS2322',
        text: "a/check.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      },
    ]);
  });

  it('keeps an error without a file position (TS2688), with its continuation lines', () => {
    const output = [
      "error TS2688: Cannot find type definition file for 'node'.",
      '  The file is in the program because:',
      "    Entry point of type library 'node' specified in compilerOptions",
      '',
    ].join('\n');
    const errors = tscErrors(output, 2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: undefined, line: undefined, code: 'TS2688' });
    expect(errors[0]?.text).toContain("Entry point of type library 'node'");
  });

  it('reads both kinds in one output', () => {
    const output = [
      "error TS2688: Cannot find type definition file for 'node'.",
      "b/check.ts(1,1): error TS2307: Cannot find module '@ctrlkit/b' or its type declarations.",
    ].join('\n');
    expect(tscErrors(output, 2).map((e) => [e.file, e.code])).toEqual([
      [undefined, 'TS2688'],
      ['b/check.ts', 'TS2307'],
    ]);
  });

  it('counts a non-zero exit with no error line as an error, quoting the output', () => {
    const errors = tscErrors('Killed\n', 137);
    expect(errors).toEqual([
      expect.objectContaining({
        file: undefined,
        code: 'exit',
        text: expect.stringContaining('Killed'),
      }),
    ]);
    expect(tscErrors('', null)[0]?.text).toContain('tsc exited with a signal');
  });

  it('finds nothing in the output of a clean run', () => {
    expect(tscErrors('', 0)).toEqual([]);
  });
});
