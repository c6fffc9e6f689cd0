import { describe, expect, it } from 'vitest';
import { withQuery } from './paths.js';

describe('withQuery', () => {
  it('leaves the path alone when every parameter is undefined or empty', () => {
    expect(withQuery('/api/v1/pods', {})).toBe('/api/v1/pods');
    expect(withQuery('/api/v1/pods', { dryRun: undefined, fieldManager: '' })).toBe('/api/v1/pods');
  });

  it('form-encodes the other parameters in their order', () => {
    expect(
      withQuery('/api/v1/pods', {
        labelSelector: 'a in (b, c)',
        empty: '',
        limit: 500,
        watch: true,
        fieldSelector: "spec.nodeName=n!~'",
      }),
    ).toBe(
      '/api/v1/pods?labelSelector=a+in+%28b%2C+c%29&limit=500&watch=true&fieldSelector=spec.nodeName%3Dn%21%7E%27',
    );
  });
});
