import { describe, expect, it } from 'vitest';
import { parseMigrateArgs, runMigrate } from './migrate-cli.js';

describe('ctrlkit-migrate arguments', () => {
  it('status PLAN with -n/--namespace and --kubeconfig', () => {
    expect(parseMigrateArgs(['status', 'p', '-n', 'ns', '--kubeconfig', '/k'])).toEqual({
      command: 'status',
      plan: 'p',
      namespace: 'ns',
      kubeconfig: '/k',
    });
    expect(parseMigrateArgs(['status', '--namespace=x', 'p'])).toMatchObject({
      plan: 'p',
      namespace: 'x',
    });
    expect(parseMigrateArgs(['--help'])).toEqual({ command: 'help' });
  });

  it('a missing plan, an unknown command or extra arguments is a usage error (exit 2)', async () => {
    const field = (argv: string[]) => {
      try {
        parseMigrateArgs(argv);
      } catch (error) {
        return (error as { field?: string }).field;
      }
      return undefined;
    };
    expect(field(['status'])).toBe('PLAN');
    expect(field(['stats', 'p'])).toBe('command');
    expect(field([])).toBe('command');
    expect(field(['status', 'a', 'b'])).toBe('arguments');
    expect(field(['status', 'a', '--bogus'])).toBe('flags');
    const err: string[] = [];
    expect(
      await runMigrate(
        ['status'],
        () => {},
        (t) => err.push(t),
      ),
    ).toBe(2);
    expect(err.join('')).toContain('Usage: ctrlkit-migrate status PLAN');
  });
});
