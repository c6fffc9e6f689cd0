import { describe, expect, it } from 'vitest';
import { migrateUsage, parseMigrateArgs, runMigrate } from './migrate-cli.js';

describe('ctrlkit-migrate arguments', () => {
  it('status PLAN with -n/--namespace and --kubeconfig', () => {
    expect(parseMigrateArgs(['status', 'p', '-n', 'ns', '--kubeconfig', '/k'])).toEqual({
      command: 'status',
      plan: 'p',
      namespace: 'ns',
      kubeconfig: '/k',
      apiGroup: 'forklift.ctrlkit.dev',
    });
    expect(parseMigrateArgs(['status', 'p', '--api-group=forklift.konveyor.io'])).toMatchObject({
      apiGroup: 'forklift.konveyor.io',
    });
    expect(() => parseMigrateArgs(['status', 'p', '--api-group=example.com'])).toThrow(
      expect.objectContaining({ field: '--api-group' }),
    );
    expect(parseMigrateArgs(['status', '--namespace=x', 'p'])).toMatchObject({
      plan: 'p',
      namespace: 'x',
    });
    expect(parseMigrateArgs(['--help'])).toEqual({ command: 'help' });
  });

  it('--help comes out of a flag table, in the layout of the other apps', () => {
    expect(
      migrateUsage(),
    ).toBe(`Usage: ctrlkit-migrate status PLAN [-n NAMESPACE] [--kubeconfig PATH] [--api-group GROUP]

Prints a migration plan's progress: its conditions, and every VM's pipeline steps
(phase, step, progress, started, completed, error).

Flags:
  -n, --namespace string
        namespace of the plan; when unset: the kubeconfig context's, else "default"
  --kubeconfig string
        kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config
  --api-group string
        API group of the plan: forklift.ctrlkit.dev, or Forklift's forklift.konveyor.io (default "forklift.ctrlkit.dev")
  -h, --help
        print this help and exit
`);
    expect(parseMigrateArgs(['-h'])).toEqual({ command: 'help' });
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
