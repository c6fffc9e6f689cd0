//! Reads `tsc --pretty false` output into errors, with or without a file position.

/** One line that opens an error: `file(line,col): error TSn: message` or `error TSn: message`. */
const ERROR_LINE = /^(?:(.+?)\((\d+),(\d+)\): )?error (TS\d+): (.*)$/;

/**
 * @typedef {object} TscError
 * @property {string | undefined} file the file the error is in; undefined for a program-wide
 *   error (a missing type library, a bad tsconfig)
 * @property {number | undefined} line 1-based line, when `file` is known
 * @property {string} code the diagnostic code, e.g. `TS2688`; `exit` for a failure tsc did not explain
 * @property {string} text the error as tsc printed it, with its indented continuation lines
 */

/**
 * The errors in the output of one `tsc --pretty false` run that exited with `status`.
 * Every `error TS…` line counts, whether or not it names a file; indented lines that follow
 * it belong to it. A non-zero (or missing) exit status with no error line in the output is
 * itself an error (code `exit`), so a failing tsc never reads as a clean one.
 * @param {string} output stdout and stderr of tsc
 * @param {number | null} status its exit status (null when it was killed)
 * @returns {TscError[]}
 */
export function tscErrors(output, status) {
  const errors = [];
  for (const line of output.split('\n')) {
    const match = ERROR_LINE.exec(line);
    if (match) {
      const [, file, row, , code] = match;
      errors.push({ file, line: row ? Number(row) : undefined, code, text: line });
      continue;
    }
    const last = errors.at(-1);
    if (last && /^\s+\S/.test(line)) last.text += `\n${line}`;
  }
  if (status !== 0 && errors.length === 0) {
    const text = `tsc exited with ${status ?? 'a signal'} and printed no error:\n${output.trim()}`;
    errors.push({ file: undefined, line: undefined, code: 'exit', text });
  }
  return errors;
}
