#!/usr/bin/env node
// pnpm check:api   (fails when a committed API report is out of date)
// pnpm api:update  (rewrites the reports)
//
// One API Extractor report per entry point: for every publishable package and app, each code
// subpath of its package.json `exports` is read from the built `.d.ts` (what a user gets) and
// written to `<package>/etc/<subpath>.api.md` (`index.api.md` for the root). A review sees every
// change to the public surface as a diff of those files. TSDoc problems (syntax, unknown tags,
// broken `{@link}`s) and exports without a doc comment are errors.
//
// Run after `pnpm build`. Options: --update, --only <name,...>.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import { codeEntryPoints, publishable, root } from '../workspace/packages.mjs';

const { values: flags } = parseArgs({
  options: { update: { type: 'boolean', default: false }, only: { type: 'string' } },
});

const error = { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false };
const none = { logLevel: ExtractorLogLevel.None };

function configFor(pkg, entry, temp) {
  return {
    projectFolder: pkg.dir,
    newlineKind: 'lf',
    mainEntryPointFilePath: join(pkg.dir, entry.types),
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          target: 'es2023',
          lib: ['es2023'],
          module: 'node16',
          moduleResolution: 'node16',
          types: ['node'],
          strict: true,
          skipLibCheck: true,
        },
        include: [join(pkg.dir, 'dist')],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.report,
      reportFolder: join(pkg.dir, 'etc'),
      reportTempFolder: temp,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: error },
      extractorMessageReporting: {
        default: error,
        // No release tags (@public, @beta): everything exported is public.
        'ae-missing-release-tag': none,
        // A type reached from the surface but not exported by this entry point (`Clock` in
        // core's ./testing, from the root): not an error, and kept out of the report, whose
        // note would name tsup's hashed chunk file and change with every build of it.
        'ae-forgotten-export': none,
        // tsup's bundled declarations re-export under short aliases (`C as Clock`).
        'ae-internal-missing-underscore': none,
        // tsup's declaration bundles do not keep the `@packageDocumentation` comment first (or
        // at all); the tours are checked where they are written, by TypeDoc (`pnpm docs`).
        'ae-misplaced-package-tag': none,
        // API Extractor resolves a {@link} only among the names of the entry point it reads, so
        // a link to another subpath's export (`{@link Client}` from ./manager) cannot resolve
        // here. TypeDoc resolves links as TypeScript does and fails on a broken one
        // (`validation.invalidLink`, warnings as errors), so links are checked there.
        'ae-unresolved-link': none,
      },
      tsdocMessageReporting: { default: error },
    },
  };
}

function main() {
  const only = flags.only ? new Set(flags.only.split(',')) : undefined;
  const temp = mkdtempSync(join(tmpdir(), 'ctrlkit-api-'));
  const problems = [];
  let reports = 0;
  try {
    for (const pkg of publishable()) {
      if (only && !only.has(pkg.manifest.name)) continue;
      for (const entry of codeEntryPoints(pkg.manifest)) {
        const where = entry.specifier;
        mkdirSync(join(pkg.dir, 'etc'), { recursive: true });
        const config = ExtractorConfig.prepare({
          configObject: configFor(pkg, entry, temp),
          configObjectFullPath: undefined,
          packageJsonFullPath: join(pkg.dir, 'package.json'),
        });
        const messages = [];
        const result = Extractor.invoke(config, {
          localBuild: flags.update,
          showVerboseMessages: false,
          messageCallback: (message) => {
            // Every export has a doc comment: a declaration at the top level of a .d.ts.
            // A member without one (an interface field, a method) shows as `(undocumented)` in
            // the report instead.
            const member =
              message.messageId === 'ae-undocumented' && message.sourceFileColumn !== 1;
            // The report written, or not: --update is for the one, `apiReportChanged` says the other.
            const report = /^console-api-report-(?:copied|created|not-copied)$/.test(
              message.messageId,
            );
            if (
              !member &&
              !report &&
              (message.logLevel === ExtractorLogLevel.Error ||
                message.logLevel === ExtractorLogLevel.Warning)
            ) {
              const at = message.sourceFilePath
                ? ` (${message.sourceFilePath.replace(root, '')}:${message.sourceFileLine})`
                : '';
              messages.push(`${message.messageId}: ${message.text}${at}`);
            }
            message.handled = true;
          },
        });
        reports++;
        if (messages.length > 0) problems.push(`${where}:\n  ${messages.join('\n  ')}`);
        if (!flags.update && result.apiReportChanged) {
          problems.push(
            `${where}: the API changed and ${config.reportFilePath.replace(root, '')} is out of date; run \`pnpm api:update\` and commit the report`,
          );
        }
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(`✘ API reports: ${problems.length} problem(s) in ${reports} entry points`);
    process.exit(1);
  }
  console.log(`✔ API reports: ${reports} entry points ${flags.update ? 'written' : 'up to date'}`);
}

main();
