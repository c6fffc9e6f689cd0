//! An itinerary: an ordered list of phases, each kept or skipped by named predicates (Forklift's pkg/lib/itinerary).

import { CtrlkitError } from '@ctrlkit/core';

/** One phase of an itinerary: kept when every `all` predicate holds and, if `any` is given, one of them does. */
export interface ItineraryStep<F extends string = string> {
  name: string;
  all?: readonly F[];
  any?: readonly F[];
}

/** Evaluates a predicate flag for one VM. */
export type Predicate<F extends string = string> = (flag: F) => boolean;

/** Thrown by `get`/`first`/`next` for a phase the itinerary does not list. */
export class StepNotFoundError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'StepNotFound' as const;

  constructor(readonly step: string) {
    super(`step not found: ${step}`);
  }
}

/** An ordered pipeline of phases filtered by a predicate. */
export class Itinerary<F extends string = string> {
  constructor(
    /** The itinerary's name (`''` for cold, `Warm`, ...). */
    readonly name: string,
    /** Every phase, before filtering. */
    readonly pipeline: readonly ItineraryStep<F>[],
    /** Decides the flags; without one every phase is kept. */
    predicate?: Predicate<F>,
  ) {
    this.#predicate = predicate;
  }

  readonly #predicate: Predicate<F> | undefined;

  /** The phase named `name`, whether or not it is kept. */
  get(name: string): ItineraryStep<F> {
    const step = this.pipeline.find((s) => s.name === name);
    if (step === undefined) throw new StepNotFoundError(name);
    return step;
  }

  /** The phases the predicate keeps, in order. */
  list(): ItineraryStep<F>[] {
    return this.pipeline.filter((s) => this.#hasAny(s) && this.#hasAll(s));
  }

  /** The first kept phase. */
  first(): ItineraryStep<F> {
    const first = this.list()[0];
    if (first === undefined) throw new StepNotFoundError('(first)');
    return first;
  }

  /** The kept phase after `name`, or `done` when `name` is the last (or not kept). */
  next(name: string): { next?: ItineraryStep<F>; done: boolean } {
    const current = this.get(name);
    const list = this.list();
    const at = list.findIndex((s) => s.name === current.name);
    const next = at >= 0 ? list[at + 1] : undefined;
    return next === undefined ? { done: true } : { next, done: false };
  }

  /** How many kept phases come before `name`, out of how many. */
  progress(name: string): { completed: number; total: number } {
    const list = this.list();
    let completed = 0;
    for (const s of list) {
      if (s.name === name) break;
      completed++;
    }
    return { completed, total: list.length };
  }

  #hasAny(step: ItineraryStep<F>): boolean {
    if (this.#predicate === undefined || !step.any?.length) return true;
    return step.any.some((f) => this.#predicate?.(f));
  }

  #hasAll(step: ItineraryStep<F>): boolean {
    if (this.#predicate === undefined || !step.all?.length) return true;
    return step.all.every((f) => this.#predicate?.(f));
  }
}

/** What the pipeline reads of an itinerary, whatever its flag type. */
export interface ItineraryView {
  readonly name: string;
  list(): ItineraryStep[];
  first(): ItineraryStep;
  next(name: string): { next?: ItineraryStep; done: boolean };
  progress(name: string): { completed: number; total: number };
}
