// Opens (creating, migrating and seeding) the songs store and the origin database in the folder given, at the instant
// given in milliseconds since the epoch, as a front or origin does at start: several at once race for one new file.
import { join } from 'node:path';
import { openOriginDatabase } from '../../src/origin/database.js';
import { DEMO_SONGS } from '../../src/songs/demo-songs.js';
import { openSongStore } from '../../src/songs/store.js';

const [folder, at] = process.argv.slice(2);
if (folder === undefined || at === undefined) throw new Error('usage: open-stores-at.ts <folder> <epoch ms>');
while (Date.now() < Number(at)) {
  // Spins rather than sleeps: a timer's lateness would spread the processes apart.
}
const songs = openSongStore(join(folder, 'songs.sqlite'));
songs.seedIfEmpty(DEMO_SONGS);
songs.close();
openOriginDatabase(join(folder, 'origin.sqlite')).close();
process.stdout.write('opened\n');
