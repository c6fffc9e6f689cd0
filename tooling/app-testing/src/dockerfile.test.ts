import { describe, expect, it } from 'vitest';
import { type DockerfileExpectations, dockerfileProblems, parseDockerfile } from './dockerfile.js';

const expected: DockerfileExpectations = {
  packageName: '@ctrlkit/app',
  nodeVersion: '24.21.0',
  entryPoint: 'dist/main.js',
  probePort: 8081,
};

const good = `# a comment
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /repo
RUN npm install -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile \\
  && pnpm --filter @ctrlkit/app deploy --prod --legacy /out

FROM node:24.21.0-bookworm-slim
WORKDIR /app
COPY --from=build /out /app
USER 65532:65532
EXPOSE 8080 8081
ENTRYPOINT ["node", "/app/dist/main.js"]
`;

describe('dockerfileProblems', () => {
  it('parses stages, joins continuation lines, drops comments', () => {
    const stages = parseDockerfile(good);
    expect(stages.map((s) => [s.from, s.name])).toEqual([
      ['node:24.21.0-bookworm-slim', 'build'],
      ['node:24.21.0-bookworm-slim', undefined],
    ]);
    expect(stages[0]?.instructions.at(-1)).toEqual({
      keyword: 'RUN',
      args: 'pnpm install --frozen-lockfile && pnpm --filter @ctrlkit/app deploy --prod --legacy /out',
    });
  });

  it('accepts a multi-stage, pinned, non-root image of the deployed app', () => {
    expect(dockerfileProblems(parseDockerfile(good), expected)).toEqual([]);
  });

  it('names each broken rule', () => {
    const bad = `FROM node:24-slim AS build
RUN pnpm install
FROM node:lts
COPY . /app
RUN npm ci
USER node
HEALTHCHECK CMD curl localhost:8081
ENTRYPOINT node /app/dist/main.js
`;
    expect(dockerfileProblems(parseDockerfile(bad), expected)).toEqual([
      'stage build is FROM node:24-slim, not node:24.21.0-<debian>-slim',
      'stage (final) is FROM node:lts, not node:24.21.0-<debian>-slim',
      'no build stage runs `pnpm deploy --filter @ctrlkit/app --prod`',
      'the final stage copies more than the deployed app: COPY . /app',
      'the final stage runs commands (it should only copy the deployed app)',
      "the final stage's USER is node: it must be a numeric non-root uid (runAsNonRoot can only verify a number)",
      'the probe port 8081 is not EXPOSEd',
      'HEALTHCHECK is ignored by Kubernetes: health comes from the probes',
      'ENTRYPOINT node /app/dist/main.js does not run node /app/dist/main.js in exec form',
    ]);
    expect(
      dockerfileProblems(parseDockerfile('FROM node:24.21.0-bookworm-slim\nUSER 0\n'), expected),
    ).toContain('has 1 stage(s), needs a build and a runtime stage');
  });

  it('takes a digest after the pinned tag', () => {
    const digest = good.replaceAll(
      'node:24.21.0-bookworm-slim',
      `node:24.21.0-bookworm-slim@sha256:${'a'.repeat(64)}`,
    );
    expect(dockerfileProblems(parseDockerfile(digest), expected)).toEqual([]);
  });
});
