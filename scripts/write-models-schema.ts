// Writes models/models.schema.json, the JSON Schema of a models file, from its zod schema
// (stages/models/models-schema.ts): `npx tsx scripts/write-models-schema.ts`. A test checks that
// the committed file is what this writes.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modelsJsonSchema } from '../stages/models/models-schema.ts';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'models', 'models.schema.json');
writeFileSync(out, JSON.stringify(modelsJsonSchema(), null, 2) + '\n');
process.stdout.write(`wrote ${out}\n`);
