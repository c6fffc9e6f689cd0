//! Executing a parsed name template against its data.

import { TEMPLATE_FUNCTIONS, truth } from './functions.js';
import type { Node, Operand, ParsedTemplate, Pipeline, TemplateValue } from './parse.js';
import { formatValue } from './printf.js';
import { NameTemplateError } from './template-error.js';

/** The data of a name template: its fields by name. */
export type TemplateData = Readonly<Record<string, string | number>>;

const fail = (message: string): never => {
  throw new NameTemplateError('TemplateNotValid', `template: ${message}`);
};

function operand(op: Operand, data: TemplateData): TemplateValue {
  switch (op.kind) {
    case 'field': {
      const value = data[op.name];
      return value === undefined ? fail(`can't evaluate field ${op.name}`) : value;
    }
    case 'dot':
      return fail("can't print the data itself: name a field");
    case 'literal':
      return op.value;
    case 'pipeline':
      return pipeline(op.pipeline, data);
    case 'function':
      return call(op.name, [], data);
  }
}

function call(name: string, args: TemplateValue[], _data: TemplateData): TemplateValue {
  const fn = TEMPLATE_FUNCTIONS.get(name) ?? fail(`function "${name}" not defined`);
  try {
    return fn(...args);
  } catch (error) {
    return fail(
      `error calling ${name}: ${(error as Error).message.replace(/^error calling \w+: /, '')}`,
    );
  }
}

function pipeline(commands: Pipeline, data: TemplateData): TemplateValue {
  let previous: TemplateValue | undefined;
  for (const command of commands) {
    const [head, ...rest] = command as [Operand, ...Operand[]];
    if (head.kind === 'function') {
      const args = rest.map((op) => operand(op, data));
      if (previous !== undefined) args.push(previous);
      previous = call(head.name, args, data);
    } else {
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
