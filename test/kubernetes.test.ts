/**
 * deploy/k8s: every overlay renders (`kubectl kustomize`), every object is valid against the Kubernetes
 * schemas (kubernetes-models, offline), and every process gets what it needs to start and every README
 * variable it reads, from its ConfigMaps or the Secret's documented keys.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { renderScaledObjects } from '../scripts/deploy/keda.ts';
import { DEPLOYED_PROCESSES, requiredVariables, variablesToSet } from '../scripts/deploy/processes.ts';
import { eventTopology } from '../scripts/deploy/topology.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const OVERLAYS = ['small', 'production', 'keda'] as const;
const SECRET = 'referral-platform-secrets';

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  startupProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  lifecycle?: { preStop?: unknown };
}
interface PodSpec {
  containers: Container[];
  enableServiceLinks?: boolean;
  securityContext?: { runAsNonRoot?: boolean };
}

function kubectl(): string {
  const found = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).stdout.trim();
  if (!found) {
    throw new Error(
      'kubectl not found: the Kubernetes manifest tests render deploy/k8s with `kubectl kustomize`. ' +
        "Install Debian's client (apt-get install -y kubectl); .ci/run does.",
    );
  }
  return found;
}

function render(overlay: string): K8sObject[] {
  const result = spawnSync(kubectl(), ['kustomize', `${root}deploy/k8s/overlays/${overlay}`], {
    encoding: 'utf8',
    maxBuffer: 32 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${overlay} failed:\n${result.stderr}`);
  return parseAllDocuments(result.stdout).map((document) => {
    if (document.errors.length) throw new Error(`${overlay}: ${document.errors.join('; ')}`);
    return document.toJS() as K8sObject;
  });
}

/** The kubernetes-models class for an object's apiVersion and kind (KEDA's from @kubernetes-models/keda). */
async function modelOf(object: K8sObject): Promise<new (data: unknown) => { validate(): void }> {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const module = (
    group === 'keda.sh'
      ? await import(`@kubernetes-models/keda/keda.sh/${version}`)
      : await import(group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`)
  ) as Record<string, new (data: unknown) => { validate(): void }>;
  const model = module[object.kind];
  if (!model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  return model;
}

const secretKeys = new Set(
  readFileSync(`${root}deploy/k8s/secrets.env.example`, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf('='))),
);

const rendered = Object.fromEntries(OVERLAYS.map((overlay) => [overlay, render(overlay)])) as Record<
  (typeof OVERLAYS)[number],
  K8sObject[]
>;
const find = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((object) => object.kind === kind && object.metadata.name === name);
const podSpec = (object: K8sObject) => (object.spec as { template: { spec: PodSpec } }).template.spec;

/** Each variable the container gets, with where from (a value, a ConfigMap's value, or a Secret key). */
function environment(objects: K8sObject[], container: Container): Map<string, { value?: string; secretKey?: string }> {
  const env = new Map<string, { value?: string; secretKey?: string }>();
  for (const source of container.envFrom ?? []) {
    const name = source.configMapRef?.name;
    expect(name, `envFrom of ${container.name} names a ConfigMap`).toBeDefined();
    const configMap = find(objects, 'ConfigMap', name!);
    expect(configMap, `ConfigMap ${name} referenced by ${container.name}`).toBeDefined();
    for (const [key, value] of Object.entries((configMap!.data ?? {}) as Record<string, string>))
      env.set(key, { value });
  }
  for (const variable of container.env ?? []) {
    const { secretKeyRef, configMapKeyRef } = variable.valueFrom ?? {};
    if (secretKeyRef) {
      expect(secretKeyRef.name, `${container.name} ${variable.name}`).toBe(SECRET);
      expect(secretKeys, `${variable.name} of ${container.name}: key in deploy/k8s/secrets.env.example`).toContain(
        secretKeyRef.key,
      );
      env.set(variable.name, { secretKey: secretKeyRef.key });
    } else if (configMapKeyRef) {
      const configMap = find(objects, 'ConfigMap', configMapKeyRef.name);
      const data = (configMap?.data ?? {}) as Record<string, string>;
      expect(data, `${variable.name} of ${container.name} from ConfigMap ${configMapKeyRef.name}`).toHaveProperty(
        configMapKeyRef.key,
      );
      env.set(variable.name, { value: data[configMapKeyRef.key] });
    } else {
      env.set(variable.name, { value: variable.value ?? '' });
    }
  }
  return env;
}

describe.each(OVERLAYS)('deploy/k8s/overlays/%s', (overlay) => {
  const objects = rendered[overlay];

  it('renders objects that are valid against the Kubernetes schemas', async () => {
    expect(objects.length).toBeGreaterThan(30);
    for (const object of objects) {
      const Model = await modelOf(object);
      expect(() => new Model(object).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
      expect(object.metadata.namespace ?? (object.kind === 'Namespace' ? 'n/a' : undefined)).toBeDefined();
    }
  });

  it.each(DEPLOYED_PROCESSES.map((process) => [process.name, process] as const))(
    '%s: one Deployment from the image, its main.ts, probes, preStop, resources, a PDB',
    (name, process) => {
      const deployment = find(objects, 'Deployment', name);
      expect(deployment, `Deployment ${name}`).toBeDefined();
      const spec = podSpec(deployment!);
      expect(spec.enableServiceLinks).toBe(false);
      expect(spec.securityContext?.runAsNonRoot).toBe(true);
      const [container] = spec.containers;
      expect(container!.image).toMatch(/referral-platform:/);
      expect(container!.command).toEqual(['node', process.main]);
      expect(existsSync(`${root}${process.main}`), `${process.main} exists`).toBe(true);
      expect(container!.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(container!.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(container!.startupProbe?.httpGet?.path).toBe('/healthz');
      expect(container!.lifecycle?.preStop).toBeDefined();
      expect(container!.resources?.requests).toHaveProperty('cpu');
      expect(container!.resources?.requests).toHaveProperty('memory');
      expect(container!.resources?.limits).toHaveProperty('memory');
      const selected = objects.filter(
        (object) =>
          object.kind === 'PodDisruptionBudget' &&
          (object.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels[
            'app.kubernetes.io/component'
          ] === name,
      );
      expect(selected, `PodDisruptionBudget for ${name}`).toHaveLength(1);
    },
  );

  it.each(DEPLOYED_PROCESSES.map((process) => [process.name, process] as const))(
    '%s: every variable it needs and every README variable it reads is set',
    (name, process) => {
      const [container] = podSpec(find(objects, 'Deployment', name)!).containers;
      const env = environment(objects, container!);
      const missing = variablesToSet(process).filter((variable) => !env.has(variable));
      expect(missing, `${name} lacks`).toEqual([]);
      for (const variable of requiredVariables(process)) {
        const source = env.get(variable)!;
        if (source.secretKey === undefined) expect(source.value, `${name} ${variable}`).not.toBe('');
      }
      // The value each process parses must pass its own schema (secrets stand in as placeholders).
      const values = Object.fromEntries(
        [...env].map(([key, source]) => [key, source.secretKey !== undefined ? placeholder(key) : source.value]),
      );
      const resolved = Object.fromEntries(
        Object.entries(values).map(([key, value]) => [
          key,
          value?.replace(/\$\((\w+)\)/g, (_, ref) => values[ref] ?? ''),
        ]),
      );
      const parsed = process.schema.safeParse(Object.fromEntries(Object.entries(resolved).filter(([, v]) => v !== '')));
      expect(parsed.error?.issues ?? [], `${name}'s configuration`).toEqual([]);
    },
  );

  it('runs the migrations as a Job with scripts/migrate.ts and DATABASE_URL', () => {
    const job = find(objects, 'Job', 'migrate');
    const [container] = podSpec(job!).containers;
    expect(container!.command).toEqual(['node', 'scripts/migrate.ts']);
    expect(existsSync(`${root}scripts/migrate.ts`)).toBe(true);
    expect(environment(objects, container!).get('DATABASE_URL')?.secretKey).toBe('DATABASE_URL');
  });

  it('holds the replay tool: a never-scheduled CronJob whose pod has the replay NATS user, and the script', () => {
    const cron = find(objects, 'CronJob', 'events-replay')!;
    const spec = cron.spec as { suspend: boolean; jobTemplate: { spec: { template: { spec: PodSpec } } } };
    expect(spec.suspend).toBe(true);
    const container = spec.jobTemplate.spec.template.spec.containers[0]!;
    const env = environment(objects, container);
    expect(env.get('NATS_PASSWORD')?.secretKey).toBe('NATS_REPLAY_PASSWORD');
    expect(env.get('NATS_URL')?.value).toBe('nats://replay:$(NATS_PASSWORD)@nats:4222');
    expect(env.get('INTERNAL_SECRET')?.secretKey).toBe('INTERNAL_SECRET');
    expect(env.get('NATS_NAMESPACE')?.value).toBeTruthy();
    expect(existsSync(`${root}scripts/replay-events.ts`)).toBe(true);
  });

  it('scales ai and mail on their own: HorizontalPodAutoscalers on CPU, or KEDA on consumer lag', () => {
    for (const name of ['ai', 'mail']) {
      const hpa = find(objects, 'HorizontalPodAutoscaler', name);
      const scaled = find(objects, 'ScaledObject', name);
      if (overlay === 'keda') {
        expect(hpa, 'KEDA makes its own HPA').toBeUndefined();
        const triggers = (scaled!.spec as { triggers: Array<{ type: string }> }).triggers.map((t) => t.type);
        expect(triggers).toContain('nats-jetstream');
        expect(triggers).toContain('cpu');
      } else {
        expect(scaled).toBeUndefined();
        const spec = hpa!.spec as { scaleTargetRef: { name: string }; metrics: Array<{ resource: { name: string } }> };
        expect(spec.scaleTargetRef.name).toBe(name);
        expect(spec.metrics[0]!.resource.name).toBe('cpu');
      }
    }
  });

  it('denies all traffic by default; only the gateway takes requests from anywhere', () => {
    const policies = objects.filter((object) => object.kind === 'NetworkPolicy');
    const spec = (policy: K8sObject) =>
      policy.spec as {
        podSelector: { matchLabels?: Record<string, string> };
        ingress?: Array<{ from?: unknown[]; ports?: unknown[] }>;
      };
    const deny = policies.find((policy) => policy.metadata.name === 'default-deny')!;
    expect(spec(deny).podSelector).toEqual({});
    const openToAll = policies.filter((policy) => spec(policy).ingress?.some((rule) => !rule.from));
    expect(openToAll.map((policy) => spec(policy).podSelector.matchLabels?.['app.kubernetes.io/component'])).toEqual([
      'gateway',
    ]);
    const ingress = objects.filter((object) => object.kind === 'Ingress');
    expect(JSON.stringify(ingress.map((object) => object.spec))).not.toMatch(/"name":"(?!gateway)[a-z]+","port"/);
  });

  it('exposes each process metrics port to the scrape annotations and the monitoring namespace only', () => {
    const policies = objects.filter((object) => object.kind === 'NetworkPolicy');
    const fromMonitoring = policies.find((policy) => policy.metadata.name === 'metrics-from-monitoring')!;
    const rules = (fromMonitoring.spec as { ingress: Array<{ from: unknown[]; ports: Array<{ port: number }> }> })
      .ingress;
    expect(rules).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        ports: [{ protocol: 'TCP', port: 9464 }],
      },
    ]);
    for (const process of DEPLOYED_PROCESSES) {
      const deployment = find(objects, 'Deployment', process.name)!;
      const template = (deployment.spec as { template: { metadata: { annotations?: Record<string, string> } } })
        .template;
      expect(template.metadata.annotations, process.name).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9464',
        'prometheus.io/path': '/metrics',
      });
      const [container] = podSpec(deployment).containers;
      expect(environment(objects, container!).get('METRICS_PORT')?.value, process.name).toBe('9464');
      const ports = (container as Container & { ports: Array<{ name: string; containerPort: number }> }).ports;
      expect(ports, process.name).toContainEqual({ name: 'metrics', containerPort: 9464 });
    }
  });

  it('runs NATS with JetStream and its generated users', () => {
    const nats = find(objects, 'StatefulSet', 'nats')!;
    const config = objects.find(
      (object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('nats-config'),
    );
    const data = config!.data as Record<string, string>;
    expect(data['nats.conf']).toContain('jetstream');
    expect(data['auth.conf']).toBe(readFileSync(`${root}deploy/k8s/base/nats/auth.conf`, 'utf8'));
    const env = environment(objects, podSpec(nats).containers[0]!);
    for (const process of DEPLOYED_PROCESSES) {
      expect(env.get(`NATS_${process.name.toUpperCase()}_PASSWORD`)?.secretKey).toBeDefined();
    }
  });
});

it('the KEDA triggers are up to date with the subscribers (else: npm run deploy:generate)', async () => {
  expect(readFileSync(`${root}deploy/k8s/overlays/keda/scaled-objects.yaml`, 'utf8')).toBe(
    renderScaledObjects(await eventTopology()),
  );
});

/** A value of the right shape for a secret the schema checks. */
function placeholder(key: string): string {
  if (key === 'DATABASE_URL') return 'postgresql://app:secret@postgres:5432/app';
  if (key === 'SMTP_URL') return 'smtp://mail:secret@smtp:587';
  return 'n'.padEnd(40, '0');
}
