import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodedBody, rawRequest } from '../src/test-support/raw-http.js';
import { nginxForTests } from '../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../src/log.js';
import { loadClientBuild, type ClientBuild } from '../src/renderer/index.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import { startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();

/** The client bundle through the front and the real nginx edge: one stored copy per coding, each validated. */
describe('the client bundle, compressed at the front and the edge', { skip }, () => {
  let layers: EdgeAndOrigin;
  let front: RunningFront | undefined;
  let build: ClientBuild;
  let path: string;

  before(async () => {
    layers = await startEdgeAndOrigin(nginx!);
    front = await startFront({ config: layers.config, logger: silentLogger() });
    build = loadClientBuild(join(layers.config.dataDir, 'client'));
    path = `/_render/static/${build.buildId}/client.js`;
  });
  after(async () => {
    await front?.close();
    await layers?.close();
  });

  for (const [header, coding] of [
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    [undefined, undefined],
  ] as const) {
    it(`answers ${coding ?? 'identity'} from the front and from one edge copy when Accept-Encoding is ${header ?? 'absent'}`, async () => {
      const headers: Record<string, string> = header === undefined ? {} : { 'accept-encoding': header };
      const direct = await rawRequest(front!.url, path, { headers: headers });
      const first = await rawRequest(layers.edge.url, path, { headers: headers });
      const second = await rawRequest(layers.edge.url, path, { headers: headers });
      for (const reply of [direct, first, second]) {
        assert.equal(reply.status, 200);
        assert.equal(reply.headers['content-encoding'], coding);
        assert.equal(Number(reply.headers['content-length']), reply.bytes.length);
        assert.equal(reply.headers.vary, 'Accept-Encoding');
        assert.equal(reply.headers.etag, direct.headers.etag);
        assert.deepEqual(decodedBody(reply), build.files.get('client.js'));
      }
      assert.deepEqual(direct.bytes, coding === undefined ? build.files.get('client.js') : build.encoded[coding]);
      assert.equal(first.headers['x-cache'], 'MISS');
      assert.equal(second.headers['x-cache'], 'HIT');
    });
  }

  it('answers 304 at the front and the edge to the ETag of the coding the client gets', async () => {
    const br = await rawRequest(layers.edge.url, path, { headers: { 'accept-encoding': 'br' } });
    for (const base of [front!.url, layers.edge.url]) {
      const notModified = await rawRequest(base, path, { headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! } });
      assert.equal(notModified.status, 304, base);
      assert.equal(notModified.bytes.length, 0);
      const other = await rawRequest(base, path, { headers: { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! } });
      assert.equal(other.status, 200, base);
      assert.equal(other.headers['content-encoding'], 'gzip');
    }
  });
});
