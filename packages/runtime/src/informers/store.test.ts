import type { KubeObject } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import {
  DeletedFinalStateUnknown,
  deletionHandlingMetaNamespaceKeyFunc,
  metaNamespaceKeyFunc,
  splitMetaNamespaceKey,
} from './key-func.js';
import { Indexer, NAMESPACE_INDEX } from './store.js';

function cm(
  namespace: string | undefined,
  name: string,
  labels: Record<string, string> = {},
  rv = '1',
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace, name, labels, resourceVersion: rv },
  };
}

const byApp = (obj: KubeObject) => (obj.metadata?.labels?.app ? [obj.metadata.labels.app] : []);

describe('key functions', () => {
  it('keys namespaced objects namespace/name and cluster-scoped ones by name', () => {
    expect(metaNamespaceKeyFunc(cm('ns', 'a'))).toBe('ns/a');
    expect(metaNamespaceKeyFunc({ metadata: { name: 'node-1' } })).toBe('node-1');
    expect(() => metaNamespaceKeyFunc({ metadata: {} })).toThrow(InvalidArgumentError);
  });

  it('deletionHandlingMetaNamespaceKeyFunc uses a tombstone key', () => {
    const tombstone = new DeletedFinalStateUnknown('ns/gone', cm('ns', 'gone'));
    expect(deletionHandlingMetaNamespaceKeyFunc(tombstone)).toBe('ns/gone');
    expect(deletionHandlingMetaNamespaceKeyFunc(cm('ns', 'a'))).toBe('ns/a');
    expect(DeletedFinalStateUnknown.isInstance(tombstone)).toBe(true);
    expect(DeletedFinalStateUnknown.isInstance(cm('ns', 'a'))).toBe(false);
  });

  it('splitMetaNamespaceKey reverses the key', () => {
    expect(splitMetaNamespaceKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitMetaNamespaceKey('node-1')).toEqual({ namespace: '', name: 'node-1' });
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow(/key/);
  });
});

describe('Indexer', () => {
  it('adds, gets, lists and deletes by key', () => {
    const store = new Indexer();
    const a = cm('ns', 'a');
    store.add(a);
    store.add(cm('other', 'b'));
    expect(store.size).toBe(2);
    expect(store.get(cm('ns', 'a'))).toBe(a);
    expect(store.getByKey('ns/a')).toBe(a);
    expect(store.listKeys().sort()).toEqual(['ns/a', 'other/b']);
    expect(store.list()).toHaveLength(2);
    store.delete(cm('ns', 'a'));
    expect(store.getByKey('ns/a')).toBeUndefined();
    expect(store.deleteByKey('ns/a')).toBeUndefined();
  });

  it('has the namespace index built in', () => {
    const store = new Indexer();
    store.add(cm('ns', 'a'));
    store.add(cm('ns', 'b'));
    store.add(cm('other', 'c'));
    store.add({ metadata: { name: 'cluster-scoped' } });
    expect(store.indexNames()).toEqual([NAMESPACE_INDEX]);
    expect(store.indexKeys(NAMESPACE_INDEX, 'ns').sort()).toEqual(['ns/a', 'ns/b']);
    expect(store.byIndex(NAMESPACE_INDEX, 'other').map((o) => o.metadata?.name)).toEqual(['c']);
    expect(store.listIndexFuncValues(NAMESPACE_INDEX).sort()).toEqual(['ns', 'other']);
  });

  it('moves an object between index values on update and drops empty values', () => {
    const store = new Indexer({ indexers: { byApp } });
    store.add(cm('ns', 'a', { app: 'web' }));
    store.update(cm('ns', 'a', { app: 'db' }));
    expect(store.byIndex('byApp', 'web')).toEqual([]);
    expect(store.indexKeys('byApp', 'db')).toEqual(['ns/a']);
    expect(store.listIndexFuncValues('byApp')).toEqual(['db']);
    store.delete(cm('ns', 'a'));
    expect(store.listIndexFuncValues('byApp')).toEqual([]);
  });

  it('put() stores under the key given and returns the object it replaced', () => {
    const store = new Indexer();
    const first = cm('ns', 'a', {}, '1');
    const second = cm('ns', 'a', {}, '2');
    expect(store.put('ns/a', first)).toBeUndefined();
    expect(store.put('ns/a', second)).toBe(first);
    expect(store.getByKey('ns/a')).toBe(second);
    expect(store.indexKeys(NAMESPACE_INDEX, 'ns')).toEqual(['ns/a']);
  });

  it('moves an object between namespaces in the namespace index when its key stays', () => {
    const store = new Indexer({ keyFunc: (obj) => obj.metadata?.name ?? '' });
    store.add(cm('one', 'a'));
    store.update(cm('two', 'a'));
    expect(store.indexKeys(NAMESPACE_INDEX, 'one')).toEqual([]);
    expect(store.indexKeys(NAMESPACE_INDEX, 'two')).toEqual(['a']);
    store.update(cm(undefined, 'a'));
    expect(store.listIndexFuncValues(NAMESPACE_INDEX)).toEqual([]);
  });

  it('index() returns objects sharing an indexed value', () => {
    const store = new Indexer({ indexers: { byApp } });
    store.add(cm('ns', 'a', { app: 'web' }));
    store.add(cm('ns', 'b', { app: 'web' }));
    store.add(cm('ns', 'c', { app: 'db' }));
    expect(
      store
        .index('byApp', cm('x', 'y', { app: 'web' }))
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b']);
  });

  it('addIndexers indexes objects already stored and refuses a name in use', () => {
    const store = new Indexer();
    store.add(cm('ns', 'a', { app: 'web' }));
    store.addIndexers({ byApp });
    expect(store.indexKeys('byApp', 'web')).toEqual(['ns/a']);
    expect(() => store.addIndexers({ byApp })).toThrow(/indexers\.byApp/);
    expect(() => store.addIndexers({ [NAMESPACE_INDEX]: byApp })).toThrow(/exists/);
  });

  it('replace() swaps the contents and rebuilds the indexes', () => {
    const store = new Indexer({ indexers: { byApp } });
    store.add(cm('ns', 'a', { app: 'web' }));
    store.replace([cm('ns', 'b', { app: 'db' })]);
    expect(store.listKeys()).toEqual(['ns/b']);
    expect(store.byIndex('byApp', 'web')).toEqual([]);
    expect(store.indexKeys(NAMESPACE_INDEX, 'ns')).toEqual(['ns/b']);
  });

  it('rejects an unknown index naming it', () => {
    const store = new Indexer();
    expect(() => store.byIndex('nope', 'x')).toThrow(/no index named "nope"/);
  });
});
