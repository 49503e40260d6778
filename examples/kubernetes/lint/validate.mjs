// validate.mjs checks every object of the Kubernetes examples against the
// Kubernetes API's JSON schemas, as kubernetes-models ships them: a field
// misspelled, misplaced or of the wrong type fails, naming the file, the
// object and the field. .ci/run runs it:
//
//   npm ci --prefix examples/kubernetes/lint && node examples/kubernetes/lint/validate.mjs
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = ['sidecar.yaml', 'fleet/fleet.yaml', 'fleet/postgres.yaml', 'fleet/secret.example.yaml'];

let failed = 0;
let checked = 0;
for (const file of files) {
  const path = join(root, file);
  for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
    if (doc.errors.length > 0) {
      console.error(`${relative(root, path)}: YAML: ${doc.errors.map(String).join('; ')}`);
      failed++;
      continue;
    }
    const obj = doc.toJS();
    if (obj == null) continue;
    const { apiVersion, kind } = obj;
    const name = `${relative(root, path)}: ${kind} ${obj.metadata?.name ?? '?'}`;
    let Model;
    try {
      const mod = await import(`kubernetes-models/${apiVersion}`);
      Model = mod[kind];
    } catch (e) {
      Model = undefined;
    }
    if (!Model) {
      console.error(`${name}: no schema for ${apiVersion} ${kind}`);
      failed++;
      continue;
    }
    try {
      new Model(obj).validate();
      checked++;
    } catch (e) {
      console.error(`${name}: ${e.message}`);
      failed++;
    }
  }
}
if (failed > 0) {
  console.error(`${failed} object(s) failed`);
  process.exit(1);
}
console.log(`${checked} Kubernetes objects valid`);
