import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { loadConfig, type Config } from '../src/config.js';
import { HEALTH_PATH, READY_PATH } from '../src/http/index.js';
import { commands } from '../src/server/commands.js';
import { containerEnv, MANIFESTS_DIR, namesConfigReads, portNumber, readManifests, SAMPLE_POD_IP, selects, workloads, type Container, type KubeObject, type PodTemplate } from './support/kubernetes.js';

const objects = readManifests();
const pods = workloads(objects);
const services = objects.filter((object) => object.kind === 'Service');

/** The sitestack containers, each with the command it runs and the configuration its environment gives. */
const sitestack = pods.flatMap((workload) =>
  workload.template.spec.containers
    .filter((container) => container.command?.[0] === 'sitestack')
    .map((container) => ({ workload, container, command: container.args?.[0] ?? '', env: containerEnv(container, objects), config: loadConfig(containerEnv(container, objects), '/') })),
);

function running(command: string) {
  const found = sitestack.find((part) => part.command === command);
  assert.ok(found, `no manifest runs sitestack ${command}`);
  return found;
}

/** The port each command listens on, as its configuration says. */
const LISTEN_PORT: Record<string, (config: Config) => number> = { front: (c) => c.port, origin: (c) => c.originPort, edge: (c) => c.edgePort };

function named(kind: string, name: string): KubeObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  assert.ok(found, `no ${kind} named ${name}`);
  return found;
}

/** The Service an in-cluster URL names, with the port it asks for, checked against the Service's ports. */
function serviceOf(url: string): KubeObject {
  const parsed = new URL(url);
  const service = named('Service', parsed.hostname);
  const ports = (service.spec?.['ports'] as { port: number }[]).map((port) => port.port);
  const port = parsed.port === '' ? ({ 'http:': 80, 'https:': 443, 'redis:': 6379 } as Record<string, number>)[parsed.protocol] : Number(parsed.port);
  assert.ok(port !== undefined && ports.includes(port), `${url}: the Service ${service.metadata.name} serves ports ${ports.join(', ')}`);
  return service;
}

function componentOf(service: KubeObject): string | undefined {
  const selector = service.spec?.['selector'] as Record<string, string>;
  return pods.find((workload) => selects(selector, workload.template.metadata.labels))?.metadata.name;
}

describe('the Kubernetes example manifests', () => {
  it('parse, and the kustomization lists every other manifest of the folder once', () => {
    const kustomization = objects.find((object) => object.kind === 'Kustomization');
    assert.ok(kustomization);
    const files = readdirSync(MANIFESTS_DIR).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    assert.deepEqual([...(kustomization.resources ?? [])].sort(), files.sort());
    for (const object of objects.filter((candidate) => candidate.kind !== 'Kustomization')) assert.ok(object.metadata.name, `${object.file}: a ${object.kind} without a name`);
  });

  const kustomize = spawnSync('kubectl', ['kustomize', MANIFESTS_DIR], { encoding: 'utf8', timeout: 60_000 });
  it('render with kustomize into the same objects, in the image the kustomization names', { skip: kustomize.error === undefined ? false : 'SKIPPED: kubectl is not installed' }, () => {
    assert.equal(kustomize.status, 0, kustomize.stderr);
    const rendered = parseAllDocuments(kustomize.stdout).map((document) => document.toJS() as KubeObject);
    const names = (list: readonly KubeObject[]) => list.map((object) => `${object.kind}/${object.metadata.name}`).sort();
    assert.deepEqual(names(rendered), names(objects.filter((object) => object.kind !== 'Kustomization')));
    assert.ok(rendered.every((object) => object.metadata.labels?.['app.kubernetes.io/part-of'] === 'sitestack'));
  });

  it('use only environment names src/config.ts reads, and give each container a configuration it accepts', () => {
    const known = namesConfigReads();
    assert.ok(known.has('REDIS_URL') && known.has('FLEET_HEARTBEAT_MS') && known.has('PORT'), 'the recording sees the fleet settings and the ports');
    const configMaps = objects.filter((object) => object.kind === 'ConfigMap' || object.kind === 'Secret');
    for (const object of configMaps) {
      for (const name of Object.keys({ ...object.data, ...object.stringData })) assert.ok(known.has(name), `${object.file}: ${name} is not read by src/config.ts`);
    }
    for (const { container, workload } of sitestack) {
      for (const variable of container.env ?? []) assert.ok(known.has(variable.name), `${workload.file}: ${variable.name} is not read by src/config.ts`);
    }
    assert.deepEqual(sitestack.map((part) => part.command).sort(), ['edge', 'front', 'origin']);
  });

  it('run the real CLI: `sitestack <command>` for a command it has, in the one image the kustomization names', () => {
    const image = objects.find((object) => object.kind === 'Kustomization')?.images?.[0]?.name;
    assert.ok(image);
    const names = new Set(commands.map((command) => command.name));
    for (const { container, command } of sitestack) {
      assert.deepEqual(container.command, ['sitestack']);
      assert.ok(names.has(command), `sitestack has no command '${command}'`);
      assert.equal(container.args?.length, 1, `${command} takes its settings from the environment, not arguments`);
      assert.ok(container.image.startsWith(`${image}:`), `${container.image} is not ${image}`);
    }
  });

  it('expose the port each command listens on, and probe it on its health and readiness routes', () => {
    for (const { container, command, config } of sitestack) {
      const listens = LISTEN_PORT[command]?.(config);
      assert.deepEqual(container.ports?.map((port) => port.containerPort), [listens], `${command}'s container port`);
      const probes = [container.readinessProbe, container.livenessProbe, container.startupProbe].filter((probe) => probe !== undefined);
      assert.ok(probes.length >= 2, `${command} has readiness and liveness probes`);
      for (const probe of probes) {
        const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
        assert.ok(port !== undefined && portNumber(container, port) === listens, `${command}: a probe on port ${String(port)}`);
      }
      if (command === 'edge') {
        // nginx answers /healthz and /readyz 404 (they are the fronts'): the edge is probed on its socket.
        assert.ok(container.readinessProbe?.tcpSocket && container.livenessProbe?.tcpSocket);
        continue;
      }
      assert.equal(container.readinessProbe?.httpGet?.path, READY_PATH, `${command}'s readiness probe`);
      assert.equal(container.livenessProbe?.httpGet?.path, HEALTH_PATH, `${command}'s liveness probe`);
      if (container.startupProbe !== undefined) assert.equal(container.startupProbe.httpGet?.path, HEALTH_PATH);
      assert.notEqual(config.host, '127.0.0.1', `${command} listens where the kubelet's probes and other pods reach it`);
    }
  });

  it('give every pod the time to drain that DRAIN_DELAY_MS and SHUTDOWN_TIMEOUT_MS take, and a readiness probe that notices within the drain delay', () => {
    for (const { workload, container, command, config } of sitestack) {
      const grace = (workload.template.spec.terminationGracePeriodSeconds ?? 30) * 1000;
      const needed = command === 'edge' ? config.shutdownTimeoutMs : config.drainDelayMs + config.shutdownTimeoutMs;
      assert.ok(grace > needed, `${workload.metadata.name}: ${grace} ms of grace for ${needed} ms of drain`);
      const readiness = container.readinessProbe;
      if (command !== 'edge' && readiness !== undefined) {
        assert.ok((readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3) * 1000 <= config.drainDelayMs, `${command}: unready is seen within DRAIN_DELAY_MS`);
      }
    }
  });

  it('have every Service select the pods of the workload it is named after, on a port their container exposes', () => {
    assert.deepEqual(services.map((service) => service.metadata.name).sort(), ['sitestack-edge', 'sitestack-front', 'sitestack-origin', 'sitestack-redis']);
    for (const service of services) {
      const selector = service.spec?.['selector'] as Record<string, string>;
      const selected = pods.filter((workload) => selects(selector, workload.template.metadata.labels));
      assert.deepEqual(selected.map((workload) => workload.metadata.name), [service.metadata.name], `${service.metadata.name} selects its own pods and no other`);
      const containers = selected[0]?.template.spec.containers ?? [];
      for (const { targetPort } of service.spec?.['ports'] as { targetPort: string | number }[]) {
        assert.ok(containers.some((container: Container) => portNumber(container, targetPort) !== undefined), `${service.metadata.name}: targetPort ${String(targetPort)}`);
      }
    }
    for (const workload of pods) {
      const selector = (workload.spec?.['selector'] as { matchLabels: Record<string, string> }).matchLabels;
      assert.ok(selects(selector, workload.template.metadata.labels), `${workload.metadata.name} selects its own template`);
    }
  });

  it('point the fronts at the origin and Redis, the origin at Redis, and the edge at the fronts, through their Services', () => {
    const front = running('front');
    const origin = running('origin');
    const edge = running('edge');
    assert.equal(componentOf(serviceOf(front.config.apiBase)), 'sitestack-origin');
    for (const part of [front, origin]) {
      assert.ok(part.config.fleet, `${part.command} is in the fleet`);
      assert.equal(componentOf(serviceOf(part.config.fleet.redisUrl)), 'sitestack-redis');
    }
    assert.deepEqual(edge.config.edgeUpstreams.map((url) => componentOf(serviceOf(url))), ['sitestack-front']);
    // The stream is the only route to the fronts: no address of a front is listed anywhere.
    assert.deepEqual(origin.config.purgeUrls, []);
    assert.ok(origin.config.cdnBaseUrl !== undefined && edge.config.cdnBaseUrl === origin.config.cdnBaseUrl, 'the edge keeps copies for the host the origin refreshes');
    assert.equal(origin.config.edgeRefreshSecret, edge.config.edgeRefreshSecret);
    assert.ok(origin.config.purgeSecret !== undefined && origin.config.purgeSecret === front.config.purgeSecret);
    assert.equal(origin.config.searchUrl, front.config.searchUrl, 'the origin writes the engine the fronts search');
  });

  it("announce each front at its pod's own address, from the downward API", () => {
    const front = running('front');
    assert.equal(front.config.host, SAMPLE_POD_IP);
    assert.deepEqual(front.container.env?.find((variable) => variable.name === 'HOST')?.valueFrom, { fieldRef: { fieldPath: 'status.podIP' } });
  });

  it('scale the fronts with an autoscaler and keep one origin and one edge', () => {
    const autoscaler = named('HorizontalPodAutoscaler', 'sitestack-front');
    assert.deepEqual(autoscaler.spec?.['scaleTargetRef'], { apiVersion: 'apps/v1', kind: 'Deployment', name: 'sitestack-front' });
    assert.equal(named('Deployment', 'sitestack-front').kind, 'Deployment');
    const budget = named('PodDisruptionBudget', 'sitestack-front');
    assert.ok(selects((budget.spec?.['selector'] as { matchLabels: Record<string, string> }).matchLabels, (named('Deployment', 'sitestack-front').spec?.['template'] as PodTemplate).metadata.labels));
    const origin = named('StatefulSet', 'sitestack-origin');
    assert.equal(origin.spec?.['replicas'], 1, 'one origin: its content store is SQLite');
    const dataDir = running('origin').config.dataDir;
    const claims = (origin.spec?.['volumeClaimTemplates'] as { metadata: { name: string } }[]).map((claim) => claim.metadata.name);
    assert.ok(running('origin').container.volumeMounts?.some((mount) => mount.mountPath === dataDir && claims.includes(mount.name)), 'DATA_DIR is on a volume claim');
    assert.equal(named('Deployment', 'sitestack-edge').spec?.['replicas'], 1, "the origin's refreshes reach one edge");
  });

  it('run Redis with its append-only file on a volume, so a restart keeps the stream', () => {
    const redis = named('StatefulSet', 'sitestack-redis');
    const container = (redis.spec?.['template'] as PodTemplate).spec.containers[0];
    assert.ok(container);
    const args = container.args ?? [];
    assert.equal(args[args.indexOf('--appendonly') + 1], 'yes');
    const dir = args[args.indexOf('--dir') + 1];
    assert.ok(container.volumeMounts?.some((mount) => mount.mountPath === dir));
  });

  it('hold the secrets in a Secret with placeholders only, and no secret in the ConfigMap', () => {
    const secret = named('Secret', 'sitestack-secrets');
    for (const name of ['PURGE_SECRET', 'ORIGIN_ADMIN_TOKEN', 'EDGE_REFRESH_SECRET']) assert.match(secret.stringData?.[name] ?? '', /CHANGE-ME/, name);
    const config = named('ConfigMap', 'sitestack-config');
    for (const name of Object.keys(config.data ?? {})) assert.doesNotMatch(name, /SECRET|TOKEN|PASSWORD/);
  });
});
