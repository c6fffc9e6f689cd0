//! CDI device IDs, `<vendor>/<class>=<name>`: parse, format and validate as container-device-interface does.

import { CdiError } from './cdi-error.js';

/** The parts of a qualified CDI device name. */
export interface QualifiedName {
  readonly vendor: string;
  readonly class: string;
  readonly name: string;
}

const isLetter = (c: string): boolean => (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
const isAlphaNumeric = (c: string): boolean => isLetter(c) || (c >= '0' && c <= '9');

function checkName(
  what: string,
  value: string,
  first: (c: string) => string | undefined,
  inner: string,
): void {
  if (value === '') throw new CdiError('InvalidDeviceId', `invalid ${what}: empty name`);
  const problem = first(value[0] as string);
  if (problem)
    throw new CdiError(
      'InvalidDeviceId',
      `invalid ${what} ${JSON.stringify(value)}: should start with ${problem}`,
    );
  for (const c of value.slice(1, -1)) {
    if (!isAlphaNumeric(c) && !inner.includes(c)) {
      throw new CdiError(
        'InvalidDeviceId',
        `invalid ${what} ${JSON.stringify(value)}: invalid character '${c}'`,
      );
    }
  }
  if (value.length > 1 && !isAlphaNumeric(value.at(-1) as string)) {
    throw new CdiError(
      'InvalidDeviceId',
      `invalid ${what} ${JSON.stringify(value)}: should end with a letter or digit`,
    );
  }
}

/** Throws `CdiError` unless `vendor` is a letter, then letters, digits, `_ - .`, ending in a letter or digit. */
export function validateVendorName(vendor: string): void {
  checkName('vendor', vendor, (c) => (isLetter(c) ? undefined : 'a letter'), '_-.');
}

/** Throws `CdiError` unless `cls` follows the vendor rules. */
export function validateClassName(cls: string): void {
  checkName('class', cls, (c) => (isLetter(c) ? undefined : 'a letter'), '_-.');
}

/** Throws `CdiError` unless `name` is a letter or digit, then letters, digits, `_ - . :`, ending in a letter or digit. */
export function validateDeviceName(name: string): void {
  checkName(
    'device name',
    name,
    (c) => (isAlphaNumeric(c) ? undefined : 'a letter or digit'),
    '_-.:',
  );
}

/** `vendor/class=name`, each part validated (`CdiError` naming the part). */
export function formatQualifiedName(vendor: string, cls: string, name: string): string {
  validateVendorName(vendor);
  validateClassName(cls);
  validateDeviceName(name);
  return `${vendor}/${cls}=${name}`;
}

/** Splits and validates a device ID `vendor/class=name`; throws `CdiError` naming what is wrong. */
export function parseQualifiedName(id: string): QualifiedName {
  if (typeof id !== 'string')
    throw new CdiError('InvalidDeviceId', `device ID must be a string, got ${typeof id}`);
  const eq = id.indexOf('=');
  const qualifier = eq < 0 ? '' : id.slice(0, eq);
  const slash = qualifier.indexOf('/');
  const vendor = slash <= 0 ? '' : qualifier.slice(0, slash);
  const cls = slash <= 0 ? '' : qualifier.slice(slash + 1);
  const name = eq < 0 ? '' : id.slice(eq + 1);
  const where = `device ID ${JSON.stringify(id)}`;
  if (id.startsWith('/') || vendor === '')
    throw new CdiError('InvalidDeviceId', `unqualified ${where}, missing vendor`);
  if (cls === '') throw new CdiError('InvalidDeviceId', `unqualified ${where}, missing class`);
  if (name === '')
    throw new CdiError('InvalidDeviceId', `unqualified ${where}, missing device name`);
  try {
    validateVendorName(vendor);
    validateClassName(cls);
    validateDeviceName(name);
  } catch (error) {
    throw new CdiError('InvalidDeviceId', `invalid ${where}: ${(error as Error).message}`);
  }
  return { vendor, class: cls, name };
}

/** Whether `id` parses as a qualified CDI device name. */
export function isQualifiedName(id: string): boolean {
  try {
    parseQualifiedName(id);
    return true;
  } catch {
    return false;
  }
}
