//! Staged conditions with categories (Forklift's pkg/lib/condition).

import type { Clock } from '@ctrlkit/core';
import type { Condition } from './api/condition.js';
import { timestamp } from './internal/time.js';

/** Condition categories. Critical and Error are blockers. */
export const Category = {
  Critical: 'Critical',
  Error: 'Error',
  Warn: 'Warn',
  Required: 'Required',
  Advisory: 'Advisory',
} as const;
/** A condition category. */
export type Category = (typeof Category)[keyof typeof Category];

/** Condition statuses. */
export const True: 'True' = 'True';
/** Condition statuses. */
export const False: 'False' = 'False';

/** The `Ready` condition type. */
export const READY = 'Ready';
/** Conditions that are not blockers but still require a requeue. */
export const REQUEUE_CONDITIONS = ['ValidatingVDDK', 'VMMissingChangedBlockTracking'] as const;

/** A condition to set: everything but `lastTransitionTime`, which the library keeps. */
export type NewCondition = Omit<Condition, 'lastTransitionTime'>;

/** What `setCondition`/`deleteCondition`/`endStagingConditions` changed, keyed by type. */
export interface Explain {
  added: Map<string, Condition>;
  updated: Map<string, Condition>;
  deleted: Map<string, Condition>;
}

// Staging state lives beside the JSON (it is never serialized, as in Go): whether a list
// is being staged, and which of its conditions are staged.
const stagingLists = new WeakSet<Condition[]>();
const staged = new WeakSet<Condition>();
const explains = new WeakMap<Condition[], Explain>();

/**
 * A view over a `conditions` array that it edits in place. Guarantees:
 * - `lastTransitionTime` changes only when a condition's type, status, category, reason,
 *   message, suggestion, durable or items change;
 * - between `beginStagingConditions` and `endStagingConditions`, only conditions set (or
 *   staged) in between, and durable ones, survive; while staging, conditions not yet
 *   staged are invisible to `find`/`has*`.
 */
export class Conditions {
  /** The array this view edits. */
  readonly list: Condition[];
  readonly #clock: Clock;

  /** @param list - the array to edit in place, e.g. `status.conditions`. */
  constructor(list: Condition[], clock: Clock) {
    this.list = list;
    this.#clock = clock;
  }

  /** Starts staging: durable conditions are kept, the others must be set again. */
  beginStagingConditions(): void {
    stagingLists.add(this.list);
    for (const c of this.list) {
      if (c.durable === true) staged.add(c);
      else staged.delete(c);
    }
  }

  /** Ends staging: drops every condition not staged since `beginStagingConditions`. */
  endStagingConditions(): void {
    stagingLists.delete(this.list);
    const kept = this.list.filter((c) => {
      if (staged.has(c)) return true;
      this.#explain().deleted.set(c.type, c);
      return false;
    });
    this.list.splice(0, this.list.length, ...kept);
  }

  /** Whether staging is under way. */
  get staging(): boolean {
    return stagingLists.has(this.list);
  }

  /** The condition of `type`; undefined when absent or, while staging, not staged. */
  findCondition(type: string): Condition | undefined {
    const c = this.list.find((x) => x.type === type);
    if (c === undefined || (this.staging && !staged.has(c))) return undefined;
    return c;
  }

  /** Sets (stages) conditions; `lastTransitionTime` is set when added or changed. */
  setCondition(...conditions: NewCondition[]): void {
    for (const next of conditions) {
      if (!next.type) continue;
      const found = this.list.find((x) => x.type === next.type);
      if (found === undefined) {
        const added = { ...copy(next), lastTransitionTime: timestamp(this.#clock) } as Condition;
        staged.add(added);
        this.list.push(added);
        const explain = this.#explain();
        explain.added.set(added.type, added);
        explain.updated.delete(added.type);
        explain.deleted.delete(added.type);
        continue;
      }
      staged.add(found);
      if (equal(found, next)) continue;
      for (const key of Object.keys(found) as Array<keyof Condition>) {
        if (key !== 'type' && key !== 'lastTransitionTime') delete found[key];
      }
      Object.assign(found, copy(next), { lastTransitionTime: timestamp(this.#clock) });
      const explain = this.#explain();
      if (!explain.added.has(found.type)) {
        explain.updated.set(found.type, found);
        explain.deleted.delete(found.type);
      }
    }
  }

  /** Sets every condition of `other`. */
  updateConditions(other: Conditions): void {
    this.setCondition(...other.list);
  }

  /** Marks existing conditions of these types as staged, keeping them as they are. */
  stageCondition(...types: string[]): void {
    for (const c of this.list) if (types.includes(c.type)) staged.add(c);
  }

  /** Deletes conditions of these types (while staging: unstages them). */
  deleteCondition(...types: string[]): void {
    const kept: Condition[] = [];
    for (const c of this.list) {
      if (!types.includes(c.type)) {
        kept.push(c);
        continue;
      }
      const explain = this.#explain();
      explain.deleted.set(c.type, c);
      explain.added.delete(c.type);
      explain.updated.delete(c.type);
      if (this.staging) {
        staged.delete(c);
        kept.push(c);
      }
    }
    this.list.splice(0, this.list.length, ...kept);
  }

  /** True when every one of `types` is present and `True` (false for none). */
  hasCondition(...types: string[]): boolean {
    if (types.length === 0) return false;
    return types.every((t) => this.findCondition(t)?.status === True);
  }

  /** True when any of `types` is present and `True`. */
  hasAnyCondition(...types: string[]): boolean {
    return types.some((t) => this.findCondition(t)?.status === True);
  }

  /** True when a `True` condition (staged, while staging) has one of these categories. */
  hasConditionCategory(...categories: string[]): boolean {
    return this.list.some(
      (c) =>
        categories.includes(c.category) && c.status === True && !(this.staging && !staged.has(c)),
    );
  }

  /** A Critical condition is set. */
  hasCriticalCondition(): boolean {
    return this.hasConditionCategory(Category.Critical);
  }

  /** An Error condition is set. */
  hasErrorCondition(): boolean {
    return this.hasConditionCategory(Category.Error);
  }

  /** A Warn condition is set. */
  hasWarnCondition(): boolean {
    return this.hasConditionCategory(Category.Warn);
  }

  /** A Critical or Error condition is set. */
  hasBlockerCondition(): boolean {
    return this.hasConditionCategory(Category.Critical, Category.Error);
  }

  /** A condition that requires a requeue (`ValidatingVDDK`, `VMMissingChangedBlockTracking`). */
  hasReQCondition(): boolean {
    return REQUEUE_CONDITIONS.some((t) => this.hasCondition(t));
  }

  /** `Ready` is set and `True`. */
  isReady(): boolean {
    return this.findCondition(READY)?.status === True;
  }

  /** What changed on this list since it was first viewed (shared by every view of it). */
  explain(): Explain {
    return this.#explain();
  }

  #explain(): Explain {
    let explain = explains.get(this.list);
    if (explain === undefined) {
      explain = { added: new Map(), updated: new Map(), deleted: new Map() };
      explains.set(this.list, explain);
    }
    return explain;
  }
}

/** A view over `holder.conditions`, creating the array if absent. */
export function conditionsOf(holder: { conditions?: Condition[] }, clock: Clock): Conditions {
  holder.conditions ??= [];
  return new Conditions(holder.conditions, clock);
}

function copy(c: NewCondition): NewCondition {
  const out: NewCondition = { type: c.type, status: c.status, category: c.category };
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.suggestion) out.suggestion = c.suggestion;
  if (c.durable) out.durable = true;
  if (c.items !== undefined && c.items.length > 0) out.items = [...c.items];
  return out;
}

/** Same items in the same order (no JSON: this runs for every condition set on every pass). */
function sameItems(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function equal(a: Condition, b: NewCondition): boolean {
  return (
    a.type === b.type &&
    a.status === b.status &&
    a.category === b.category &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    (a.suggestion ?? '') === (b.suggestion ?? '') &&
    (a.durable ?? false) === (b.durable ?? false) &&
    sameItems(a.items ?? [], b.items ?? [])
  );
}
