import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (relative: string) => readFileSync(new URL(relative, import.meta.url), 'utf8');
const client = '../../../packages/client/';

/** The first ```ts block of `markdown`. */
function firstTsBlock(markdown: string): string | undefined {
  return /^```ts\n([\s\S]*?)^```$/m.exec(markdown)?.[1];
}

/** The first ```ts block of the `@packageDocumentation` comment of `source`, unprefixed. */
function tourBlock(source: string): string | undefined {
  const comment = /\/\*\*([\s\S]*?)@packageDocumentation/.exec(source)?.[1] ?? '';
  const lines = comment.split('\n').map((line) => line.replace(/^ \* ?/, '').replace(/^ \*$/, ''));
  return firstTsBlock(lines.join('\n'));
}

it("is the program of @ctrlkit/client's README", () => {
  expect(firstTsBlock(read(`${client}README.md`))).toBe(read('./main.ts'));
});

it("is the first program of @ctrlkit/client's @packageDocumentation tour", () => {
  expect(tourBlock(read(`${client}src/index.ts`))).toBe(read('./main.ts'));
});
