import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { Condition } from './api/condition.js';
import { Category, Conditions, conditionsOf, True } from './conditions.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function setup() {
  const clock = new FakeClock(T0);
  const list: Condition[] = [];
  return { clock, list, cnd: new Conditions(list, clock) };
}

describe('Conditions', () => {
  it('sets lastTransitionTime when added, and only when a field changes', () => {
    const { clock, list, cnd } = setup();
    cnd.setCondition({ type: 'Ready', status: True, category: Category.Required, message: 'ok' });
    expect(list[0]?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    clock.step(5_000);
    cnd.setCondition({ type: 'Ready', status: True, category: Category.Required, message: 'ok' });
    expect(list[0]?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    cnd.setCondition({
      type: 'Ready',
      status: True,
      category: Category.Required,
      message: 'changed',
    });
    expect(list[0]?.lastTransitionTime).toBe('2026-01-01T00:00:05Z');
    expect(list[0]?.message).toBe('changed');
    clock.step(5_000);
    cnd.setCondition({
      type: 'Ready',
      status: True,
      category: Category.Required,
      message: 'changed',
      items: ['a'],
    });
    expect(list[0]?.lastTransitionTime).toBe('2026-01-01T00:00:10Z');
    expect(list[0]?.items).toEqual(['a']);
  });

  it('condition staging: begin keeps durable conditions, set stages, end drops unstaged ones', () => {
    const { cnd, list } = setup();
    cnd.setCondition(
      { type: 'A', status: True, category: Category.Critical },
      { type: 'B', status: True, category: Category.Advisory, durable: true },
      { type: 'C', status: True, category: Category.Warn },
    );
    cnd.beginStagingConditions();
    expect(cnd.findCondition('A')).toBeUndefined();
    expect(cnd.findCondition('B')).toBeDefined();
    expect(cnd.hasBlockerCondition()).toBe(false);
    cnd.setCondition({ type: 'C', status: True, category: Category.Warn });
    cnd.setCondition({ type: 'D', status: True, category: Category.Error });
    expect(cnd.hasBlockerCondition()).toBe(true);
    cnd.endStagingConditions();
    expect(list.map((c) => c.type)).toEqual(['B', 'C', 'D']);
  });

  it('condition staging: stageCondition keeps a condition as it is', () => {
    const { cnd, list } = setup();
    cnd.setCondition({ type: 'A', status: True, category: Category.Critical, message: 'x' });
    cnd.beginStagingConditions();
    cnd.stageCondition('A');
    cnd.endStagingConditions();
    expect(list).toHaveLength(1);
  });

  it('deleteCondition removes, and while staging unstages so end drops it', () => {
    const { cnd, list } = setup();
    cnd.setCondition(
      { type: 'A', status: True, category: Category.Advisory, durable: true },
      { type: 'B', status: True, category: Category.Advisory },
    );
    cnd.deleteCondition('B');
    expect(list.map((c) => c.type)).toEqual(['A']);
    cnd.beginStagingConditions();
    cnd.deleteCondition('A');
    expect(list).toHaveLength(1);
    expect(cnd.hasCondition('A')).toBe(false);
    cnd.endStagingConditions();
    expect(list).toHaveLength(0);
  });

  it('has*: categories, all/any, False status, ready and requeue conditions', () => {
    const { cnd } = setup();
    expect(cnd.hasCondition()).toBe(false);
    cnd.setCondition(
      { type: 'W', status: True, category: Category.Warn },
      { type: 'F', status: 'False', category: Category.Critical },
      { type: 'Ready', status: True, category: Category.Required },
      { type: 'ValidatingVDDK', status: True, category: Category.Advisory },
    );
    expect(cnd.hasWarnCondition()).toBe(true);
    expect(cnd.hasCriticalCondition()).toBe(false);
    expect(cnd.hasErrorCondition()).toBe(false);
    expect(cnd.hasCondition('W', 'F')).toBe(false);
    expect(cnd.hasAnyCondition('W', 'F')).toBe(true);
    expect(cnd.isReady()).toBe(true);
    expect(cnd.hasReQCondition()).toBe(true);
  });

  it('explain reports added, updated and deleted types', () => {
    const { cnd } = setup();
    cnd.setCondition({ type: 'A', status: True, category: Category.Advisory });
    cnd.setCondition({ type: 'A', status: True, category: Category.Advisory, message: 'm' });
    expect([...cnd.explain().added.keys()]).toEqual(['A']);
    expect([...cnd.explain().updated.keys()]).toEqual([]);
    cnd.deleteCondition('A');
    expect([...cnd.explain().deleted.keys()]).toEqual(['A']);
    expect(cnd.explain().added.size).toBe(0);
  });

  it('conditionsOf creates the array on the holder and views share staging', () => {
    const clock = new FakeClock(T0);
    const holder: { conditions?: Condition[] } = {};
    conditionsOf(holder, clock).setCondition({ type: 'A', status: True, category: Category.Warn });
    conditionsOf(holder, clock).beginStagingConditions();
    expect(conditionsOf(holder, clock).hasCondition('A')).toBe(false);
    conditionsOf(holder, clock).endStagingConditions();
    expect(holder.conditions).toEqual([]);
  });
});
