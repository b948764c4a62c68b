import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.js';

/** The example manifests' folder. */
export const MANIFESTS_DIR = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));

/** The parts of a Kubernetes object the tests read; everything else stays `unknown`. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  resources?: string[];
  images?: { name: string }[];
  /** The file it was read from. */
  file: string;
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
  exec?: { command: string[] };
  periodSeconds?: number;
  failureThreshold?: number;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string }; configMapKeyRef?: { name: string; key: string } };
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: { containers: Container[]; terminationGracePeriodSeconds?: number; volumes?: { name: string }[] };
}

/** Every object of every `.yaml` file of the folder, in file order; a file that does not parse fails. */
export function readManifests(dir = MANIFESTS_DIR): KubeObject[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((document) => {
        if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
        return { ...(document.toJS() as Omit<KubeObject, 'file'>), file };
      }),
    );
}

/** The workloads: objects with a pod template. */
export function workloads(objects: readonly KubeObject[]): (KubeObject & { template: PodTemplate })[] {
  return objects.flatMap((object) => {
    const template = object.spec?.['template'] as PodTemplate | undefined;
    return template === undefined ? [] : [{ ...object, template }];
  });
}

/**
 * Every environment name `loadConfig` reads, found by running it on an environment that records what is asked of it:
 * once without Redis and once with it (the fleet's settings are read only then).
 */
export function namesConfigReads(): Set<string> {
  const names = new Set<string>();
  for (const given of [{}, { REDIS_URL: 'redis://127.0.0.1:6379' }] as Record<string, string>[]) {
    const recording = new Proxy(given, {
      get(target, name) {
        if (typeof name === 'string') names.add(name);
        return typeof name === 'string' ? target[name] : undefined;
      },
    });
    loadConfig(recording);
  }
  return names;
}

/** The address a sample pod has, standing in for the downward API's `status.podIP`. */
export const SAMPLE_POD_IP = '10.244.1.7';

/** The environment a container sees: its ConfigMaps (envFrom), then its own variables with secrets and pod fields resolved. */
export function containerEnv(container: Container, objects: readonly KubeObject[]): Record<string, string> {
  const byName = (kind: string, name: string) => {
    const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
    if (found === undefined) throw new Error(`container ${container.name} names the ${kind} '${name}', which no manifest defines`);
    return found;
  };
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef !== undefined) Object.assign(env, byName('ConfigMap', source.configMapRef.name).data);
    if (source.secretRef !== undefined) Object.assign(env, byName('Secret', source.secretRef.name).stringData);
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    let value = variable.value;
    if (from?.secretKeyRef !== undefined) value = byName('Secret', from.secretKeyRef.name).stringData?.[from.secretKeyRef.key];
    if (from?.configMapKeyRef !== undefined) value = byName('ConfigMap', from.configMapKeyRef.name).data?.[from.configMapKeyRef.key];
    if (from?.fieldRef !== undefined) value = from.fieldRef.fieldPath === 'status.podIP' ? SAMPLE_POD_IP : undefined;
    if (value === undefined) throw new Error(`container ${container.name}: ${variable.name} has no value the manifests give`);
    env[variable.name] = value;
  }
  return env;
}

/** A probe's or Service's port, by number or by the container port's name. */
export function portNumber(container: Container, port: string | number): number | undefined {
  return typeof port === 'number' ? port : container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

/** Whether every pair of `selector` is among `labels`. */
export function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).length > 0 && Object.entries(selector).every(([name, value]) => labels[name] === value);
}
