/**
 * `npm run deploy:generate`: writes the deployment files derived from the code's event topology
 * (scripts/deploy/topology.ts): the NATS users and their permissions (deploy/k8s/base/nats/auth.conf, used by
 * Kubernetes and docker-compose alike) and the KEDA triggers (deploy/k8s/overlays/keda/scaled-objects.yaml).
 * Run it after adding an event, a subscriber or a listener; a test fails while a committed file is stale.
 *   --check            exit 1 if a file is not what the code gives
 *   --namespace NAME   for a NATS_NAMESPACE other than `events`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { renderScaledObjects } from './deploy/keda.ts';
import { natsUsers, renderNatsAuthorization } from './deploy/nats-permissions.ts';
import { eventTopology } from './deploy/topology.ts';

const file = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const { values } = parseArgs({ options: { check: { type: 'boolean' }, namespace: { type: 'string' } } });
const namespace = values.namespace ?? 'events';
const topology = await eventTopology();
const outputs = {
  'deploy/k8s/base/nats/auth.conf': renderNatsAuthorization(natsUsers(topology, namespace), namespace),
  'deploy/k8s/overlays/keda/scaled-objects.yaml': renderScaledObjects(topology, { namespace }),
};

let stale = false;
for (const [path, text] of Object.entries(outputs)) {
  if (values.check) {
    let current = '';
    try {
      current = readFileSync(file(path), 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current !== text) {
      console.error(`${path} is stale: run \`npm run deploy:generate\``);
      stale = true;
    }
  } else {
    writeFileSync(file(path), text);
    console.log(`wrote ${path}`);
  }
}
process.exit(stale ? 1 : 0);
