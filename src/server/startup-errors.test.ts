import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ERRORS } from '../error-codes.js';
import { describeFailure, startupError } from './startup-errors.js';

const where = { host: '127.0.0.1', port: 3000, originPort: 4000, edgePort: 8080, dataDir: '/srv/data' };
const systemError = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.code)), fields);

describe('describeFailure', () => {
  it('words a port in use with the variable that set it', () => {
    const failure = describeFailure(systemError({ code: 'EADDRINUSE', syscall: 'listen', address: '127.0.0.1', port: 4000 }), where);
    assert.deepEqual(failure, { line: 'ORIGIN_PORT=4000 on HOST=127.0.0.1 is already in use: stop the process using it or set another port', exitCode: 2 });
    assert.match(startupError(systemError({ code: 'EADDRINUSE', syscall: 'listen', port: 3000 }), where, 'EDGE_PORT')?.message ?? '', /^EDGE_PORT=3000 /);
  });

  it('words a HOST that does not resolve or is not this machine', () => {
    assert.match(describeFailure(systemError({ code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: '127.0.0.1' }), where).line, /^HOST=127\.0\.0\.1 does not resolve \(ENOTFOUND\)/);
    assert.match(describeFailure(systemError({ code: 'EADDRNOTAVAIL', syscall: 'listen', port: 3000 }), where).line, /is not an address of this machine/);
  });

  it('names the file of a file system error and of a database SQLite cannot open', () => {
    assert.match(describeFailure(systemError({ code: 'EACCES', syscall: 'open', path: '/srv/data/songs.sqlite' }), where).line, /cannot use \/srv\/data\/songs\.sqlite \(EACCES\) \(DATA_DIR=\/srv\/data\)/);
    const sqlite = Object.assign(new Error('unable to open database file'), { name: 'SqliteError', code: 'SQLITE_CANTOPEN' });
    assert.match(describeFailure(sqlite, where).line, /DATA_DIR=\/srv\/data \(SQLITE_CANTOPEN: unable to open database file\)/);
  });

  it('makes a usage error one line with the first line of its usage', () => {
    const usage = ERRORS.USAGE("Unknown option '--bogus'\nUsage: sitestack songs import <file.csv>\n  sitestack songs refresh");
    assert.deepEqual(describeFailure(usage, undefined), { line: "Unknown option '--bogus'; usage: sitestack songs import <file.csv>", exitCode: 2 });
    assert.equal(describeFailure(ERRORS.BAD_REQUEST('a.csv:\n  line 2: bad'), undefined).line, 'a.csv:; line 2: bad');
  });

  it('keeps the stack trace of an error it does not know, a bug, with exit 1', () => {
    const bug = new TypeError('x is undefined');
    assert.deepEqual(describeFailure(bug, where), { line: bug.stack, exitCode: 1 });
    assert.equal(describeFailure(ERRORS.INTERNAL(), where).exitCode, 1);
  });
});
