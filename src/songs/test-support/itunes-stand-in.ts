import { trackMatches, misbehave, startStandIn, type StandIn } from './stand-in.js';
import type { StandInTrack } from './catalogue.js';

/** One row of an iTunes Search API answer for `entity=song`, with the fields the real service sends. */
export function itunesRow(track: StandInTrack): Record<string, unknown> {
  const slug = track.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    wrapperType: 'track',
    kind: 'song',
    artistId: 1000 + track.id,
    collectionId: 2000 + track.id,
    trackId: track.id,
    artistName: track.artist,
    collectionName: track.album,
    trackName: track.title,
    collectionCensoredName: track.album,
    trackCensoredName: track.title,
    artistViewUrl: `https://music.apple.com/us/artist/${1000 + track.id}?uo=4`,
    collectionViewUrl: `https://music.apple.com/us/album/${slug}/${2000 + track.id}?i=${track.id}&uo=4`,
    trackViewUrl: `https://music.apple.com/us/album/${slug}/${2000 + track.id}?i=${track.id}&uo=4`,
    previewUrl: `https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview/${track.id}.m4a`,
    artworkUrl30: `https://is1-ssl.mzstatic.com/image/thumb/Music/${track.id}/30x30bb.jpg`,
    artworkUrl60: `https://is1-ssl.mzstatic.com/image/thumb/Music/${track.id}/60x60bb.jpg`,
    artworkUrl100: `https://is1-ssl.mzstatic.com/image/thumb/Music/${track.id}/100x100bb.jpg`,
    collectionPrice: 9.99,
    trackPrice: track.price,
    releaseDate: '1975-10-31T12:00:00Z',
    collectionExplicitness: 'notExplicit',
    trackExplicitness: 'notExplicit',
    discCount: 1,
    discNumber: 1,
    trackCount: 12,
    trackNumber: 1,
    trackTimeMillis: 354_320,
    country: 'USA',
    currency: track.currency,
    primaryGenreName: 'Rock',
    isStreamable: true,
  };
}

/**
 * A local iTunes Search API: `GET /search?term=…&media=music&entity=song&limit=…` answers the tracks whose artist,
 * title and album hold every word of `term`, as `text/javascript` JSON like the real service.
 */
export function startItunesStandIn(tracks: readonly StandInTrack[]): Promise<StandIn> {
  return startStandIn((request, _body, response, search) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method !== 'GET' || url.pathname !== '/search') {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
      return;
    }
    const term = url.searchParams.get('term');
    const limit = Number(url.searchParams.get('limit') ?? '50');
    if (term === null || term.trim() === '' || !Number.isInteger(limit) || limit < 1 || limit > 200) {
      response.writeHead(400, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(JSON.stringify({ errorMessage: 'Invalid value(s) for key(s): [term, limit]', queryParameters: Object.fromEntries(url.searchParams) }));
      return;
    }
    if (misbehave(search(), response)) return;
    const results = tracks.filter((track) => trackMatches(term, track)).slice(0, limit).map(itunesRow);
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    response.end(JSON.stringify({ resultCount: results.length, results }));
  });
}
