//! A LIST in pages, as client-go's `tools/pager`: continue tokens, and one whole request when a token expires.

import type { KubeObject, ObjectList } from '@ctrlkit/client';
import { isGone } from '@ctrlkit/core';
import type { ListRequestOptions, ListWatch } from './list-watch.js';

/** The objects of a list and the version of the state they are. */
export interface ListResult<T> {
  items: T[];
  resourceVersion: string;
  /** The answer came in more than one page. */
  paginated: boolean;
}

/**
 * A list at `resourceVersion` in pages of `limit` (0: one request): continue pages carry no
 * version; when one is answered 410 (its snapshot was compacted), `onContinueExpired` is
 * told and the whole list is asked again in one request at `resourceVersion`. Each item goes
 * through `transform`. `parsing` goes with every request (what the ListWatch may do while it
 * parses: leave managedFields out, set kind and apiVersion).
 */
export async function pagedList<T extends KubeObject>(
  listWatch: ListWatch<T>,
  resourceVersion: string,
  limit: number,
  signal: AbortSignal,
  transform: ((obj: T) => T) | undefined,
  onContinueExpired: (error: unknown) => void,
  parsing: Pick<ListRequestOptions, 'dropManagedFields' | 'itemTypeMeta'> = {},
): Promise<ListResult<T>> {
  const items: T[] = [];
  let listVersion = '';
  let continueToken: string | undefined;
  let paginated = false;
  do {
    let page: ObjectList<T>;
    try {
      page = await listWatch.list(
        continueToken === undefined
          ? { ...parsing, resourceVersion, limit: limit || undefined, signal }
          : { ...parsing, continue: continueToken, limit: limit || undefined, signal },
      );
    } catch (error) {
      if (continueToken === undefined || signal.aborted || !isGone(error)) throw error;
      onContinueExpired(error);
      const whole = await listWatch.list({ ...parsing, resourceVersion, signal });
      items.length = 0;
      collectPage(whole, items, transform);
      return { items, resourceVersion: whole.metadata?.resourceVersion ?? '', paginated };
    }
    collectPage(page, items, transform);
    if (continueToken === undefined) listVersion = page.metadata?.resourceVersion ?? '';
    continueToken = page.metadata?.continue || undefined;
    if (continueToken !== undefined) paginated = true;
  } while (continueToken !== undefined && !signal.aborted);
  return { items, resourceVersion: listVersion, paginated };
}

/** Appends a page's items to `items`, with kind and apiVersion set and transformed. */
function collectPage<T extends KubeObject>(
  page: ObjectList<T>,
  items: T[],
  transform: ((obj: T) => T) | undefined,
): void {
  const pageItems = page.items;
  const kind = page.kind?.endsWith('List') ? page.kind.slice(0, -4) : undefined;
  const apiVersion = page.apiVersion;
  for (let i = 0; i < pageItems.length; i++) {
    let item = pageItems[i] as T;
    // List items carry no kind/apiVersion; watch events do, first. Make them alike (the
    // body parser writes them into the item's text; this is for pages it did not type).
    if (kind !== undefined && item.kind === undefined) item = { kind, apiVersion, ...item };
    if (transform !== undefined) item = transform(item);
    items.push(item);
  }
}
