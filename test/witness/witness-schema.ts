/**
 * Schema validation of the SV-COMP witnesses rely writes: the YAML parsed with `yaml`,
 * then checked by Ajv (with ajv-formats: uuid, date-time) against the schema in
 * test/fixtures/schemas/sv-witnesses/ — rely's transcription of the formats 2.0–2.2,
 * not the official sv-witnesses schemas, which the README there says are not vendored.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

const SCHEMA = 'test/fixtures/schemas/sv-witnesses/witness-2.x.rely.schema.json';
// ajv-formats is CommonJS whose default export TypeScript's NodeNext types do not see as callable.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;

let validator: ValidateFunction | undefined;

/** The schema's complaints about the witness in file `w` (empty: valid). */
export function witnessSchemaErrors(w: string): string[] {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
  }
  const doc: unknown = parse(readFileSync(w, 'utf8'));
  return validator(doc) ? [] : (validator.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
