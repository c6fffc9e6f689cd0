import { describe, expect, it } from 'vitest';
import type { Hook } from '../api/hook.js';
import { isBase64, validateHook } from './hook-validation.js';

const hook = (image: string, playbook?: string): Hook => ({
  metadata: { name: 'h', namespace: 'ns' },
  spec: { image, ...(playbook !== undefined && { playbook }) },
});
const types = (h: Hook) => validateHook(h).map((c) => `${c.type}/${c.reason ?? ''}`);

describe('validateHook', () => {
  it('an image reference with a base64 playbook is Ready', () => {
    const playbook = Buffer.from('- hosts: localhost\n  tasks: []\n').toString('base64');
    expect(types(hook('quay.io/kubev2v/hook-runner:latest', playbook))).toEqual(['Ready/']);
    expect(types(hook(`registry.local:5000/ns/img@sha256:${'a'.repeat(64)}`))).toEqual(['Ready/']);
    expect(types(hook('busybox'))).toEqual(['Ready/']);
  });

  it('an invalid image gets InvalidImage (NotSet), a non-base64 playbook InvalidPlaybook (DataError)', () => {
    expect(types(hook('Not An Image!'))).toEqual(['InvalidImage/NotSet']);
    expect(types(hook('quay.io/UPPER/x'))).toEqual(['InvalidImage/NotSet']);
    expect(types(hook('busybox', 'not base64 !!'))).toEqual(['InvalidPlaybook/DataError']);
    expect(validateHook(hook('busybox', '%%%'))[0]).toMatchObject({ category: 'Critical' });
  });

  it('isBase64 is padded standard base64, line breaks ignored', () => {
    expect(isBase64('aGVsbG8=')).toBe(true);
    expect(isBase64('aGVs\nbG8=')).toBe(true);
    expect(isBase64('aGVsbG8')).toBe(false);
    expect(isBase64('aGVsbG8_')).toBe(false);
  });
});
