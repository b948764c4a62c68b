import { DEMO_SONGS } from '../../src/songs/index.js';
import { load, spawnServer, type BenchResult, type BenchSuite } from '../lib.js';

const SERVER = 'servers/songs-server.ts';
const PATHS = DEMO_SONGS.map((song) => `/api/song/${song.id}/affiliate/itunes`);

export const songsSuite: BenchSuite = {
  name: 'songs',
  description: 'warm affiliate lookups through the front (saved in SQLite) against a bare fastify route answering the same JSON',
  async run(): Promise<BenchResult[]> {
    const baselineServer = await spawnServer(SERVER, ['baseline']);
    const baseline = await load(baselineServer.url, { paths: PATHS }).finally(() => baselineServer.stop());

    const songsServer = await spawnServer(SERVER, ['front']);
    try {
      for (const path of PATHS) {
        const response = await fetch(`${songsServer.url}${path}`);
        if (response.status !== 200) throw new Error(`warming ${path} answered ${response.status}`);
        await response.arrayBuffer();
      }
      const warm = await load(songsServer.url, { paths: PATHS });
      const failures = warm.errors + warm.non2xx;
      return [
        { name: 'bare fastify route, same JSON', value: baseline.requestsPerSecond, unit: 'req/s', note: `p99 ${baseline.p99Ms} ms` },
        {
          name: 'warm affiliate lookups',
          value: warm.requestsPerSecond,
          unit: 'req/s',
          baseline: 'bare fastify route, same JSON',
          target: { min: 5_000 },
          note: `p99 ${warm.p99Ms} ms; ${failures} failed; through the real front (its /api/ app), provider answers saved in SQLite`,
        },
      ];
    } finally {
      await songsServer.stop();
    }
  },
};
