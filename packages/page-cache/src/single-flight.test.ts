import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SingleFlight } from './single-flight.js';

describe('SingleFlight', () => {
  it('lets only the first miss of a key lead while its flight is under way', () => {
    const flights = new SingleFlight<[string]>();
    assert.equal(flights.lead('/a'), true);
    assert.equal(flights.lead('/a'), false);
    assert.equal(flights.lead('/b'), true);
  });

  it('tells every follower the result in the order they came when the flight lands', () => {
    const flights = new SingleFlight<[string, boolean]>();
    flights.lead('/a');
    const told: string[] = [];
    for (const name of ['first', 'second']) assert.equal(flights.follow('/a', (result, outdated) => told.push(`${name} ${result} ${outdated}`)), true);
    flights.land('/a', 'entry', false);
    assert.deepEqual(told, ['first entry false', 'second entry false']);
  });

  it('keeps no follower and lets the next miss lead when no flight is under way', () => {
    const flights = new SingleFlight<[number]>();
    let told = 0;
    assert.equal(flights.follow('/a', () => told++), false);
    flights.lead('/a');
    flights.land('/a', 1);
    flights.land('/a', 2);
    assert.equal(told, 0);
    assert.equal(flights.lead('/a'), true);
  });

  it('lets a follower told of a landing lead the next flight of the same key', () => {
    const flights = new SingleFlight<[]>();
    flights.lead('/a');
    let ledAgain: boolean | undefined;
    flights.follow('/a', () => {
      ledAgain = flights.lead('/a');
    });
    flights.land('/a');
    assert.equal(ledAgain, true);
  });
});
