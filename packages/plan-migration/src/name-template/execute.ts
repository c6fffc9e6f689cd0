//! Executing a parsed name template against its data.

import { TEMPLATE_FUNCTIONS } from './functions.js';
import type { Node, Operand, ParsedTemplate, Pipeline } from './parse.js';
import { CallError } from './signature.js';
import { NameTemplateError } from './template-error.js';
import { formatValue, type TemplateValue, truth } from './value.js';

/** The data of a name template: its fields by name (a Go struct's, all present), and the type's name. */
export interface TemplateData {
  /** The Go type's name, for errors (`can't evaluate field X in type PVCNameTemplateData`). */
  readonly typeName: string;
  /** Every field of the type, with its value (the zero value when the call site has none). */
  readonly fields: Readonly<Record<string, string | number | boolean>>;
}

const fail = (message: string): never => {
  throw new NameTemplateError('TemplateNotValid', `template: ${message}`);
};

function operand(op: Operand, data: TemplateData): TemplateValue {
  switch (op.kind) {
    case 'field': {
      const value = Object.hasOwn(data.fields, op.name) ? data.fields[op.name] : undefined;
      return value ?? fail(`can't evaluate field ${op.name} in type ${data.typeName}`);
    }
    case 'dot':
      return fail(`can't print the data itself (type ${data.typeName}): name a field`);
    case 'literal':
      return op.value;
    case 'pipeline':
      return pipeline(op.pipeline, data);
    case 'function':
      return call(op.name, [], undefined, data);
  }
}

/** Calls `name` with `args` (operands, evaluated here) and the piped `final` value. */
function call(
  name: string,
  args: Operand[],
  final: TemplateValue | undefined,
  data: TemplateData,
): TemplateValue {
  const f = TEMPLATE_FUNCTIONS.get(name) ?? fail(`function "${name}" not defined`);
  const count = args.length + (final === undefined ? 0 : 1);
  try {
    if ((name === 'and' || name === 'or') && count > 0) {
      // Go evaluates `and` and `or` lazily: the first false (true) argument ends them.
      let value: TemplateValue = false;
      for (let i = 0; i < count; i++) {
        value = i < args.length ? operand(args[i] as Operand, data) : (final as TemplateValue);
        if (truth(value) === (name === 'or')) break;
      }
      return value;
    }
    const values = args.map((op) => operand(op, data));
    if (final !== undefined) values.push(final);
    return f.call(values);
  } catch (error) {
    if (NameTemplateError.isInstance(error)) throw error;
    const message = (error as Error).message;
    return fail(error instanceof CallError ? message : `executing at <${name}>: ${message}`);
  }
}

function pipeline(commands: Pipeline, data: TemplateData): TemplateValue {
  let previous: TemplateValue | undefined;
  for (const command of commands) {
    const [head, ...rest] = command as [Operand, ...Operand[]];
    if (head.kind === 'function') previous = call(head.name, rest, previous, data);
    else {
      if (rest.length > 0 || previous !== undefined) fail(`can't give argument to non-function`);
      previous = operand(head, data);
    }
  }
  return previous as TemplateValue;
}

function run(nodes: Node[], data: TemplateData): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'action') out += formatValue(pipeline(node.pipeline, data));
    else out += run(truth(pipeline(node.condition, data)) ? node.whenTrue : node.whenFalse, data);
  }
  return out;
}

/** Executes `template` against `data`; errors (an unknown field, a bad call) are {@link NameTemplateError}. */
export function executeTemplate(template: ParsedTemplate, data: TemplateData): string {
  return run(template.nodes, data);
}
