import type { Config } from '../config.js';
import { ERRORS } from '../error-codes.js';
import { isAppError, type AppError } from '../errors.js';

/** What the CLI prints and exits with when a command fails. */
export interface Failure {
  /** One line, without its `sitestack: ` prefix. */
  line: string;
  /** 2: usage or configuration, something the operator changes; 1: the work failed or a bug. */
  exitCode: 1 | 2;
}

/** The parts of a Node system error (`listen EADDRINUSE`, `getaddrinfo ENOTFOUND`, fs errors) this file reads. */
interface SystemError {
  code?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  path?: unknown;
  name?: unknown;
  message?: unknown;
}

type Where = Pick<Config, 'host' | 'port' | 'originPort' | 'edgePort' | 'dataDir'>;

const RESOLVE_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const FS_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EISDIR', 'ENOSPC', 'EEXIST']);
/** SQLite's own codes for a file it cannot open, write or read as a database. */
const SQLITE_FILE_CODES = new Set(['SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_PERM', 'SQLITE_IOERR', 'SQLITE_FULL']);

/** The variable that set `port`, so the message names what to change. */
function portVariable(port: unknown, where: Partial<Where> | undefined, variable: string | undefined): string {
  if (variable !== undefined) return `${variable}=${String(port)}`;
  if (where === undefined) return `port ${String(port)}`;
  if (port === where.port) return `PORT=${where.port}`;
  if (port === where.originPort) return `ORIGIN_PORT=${where.originPort}`;
  if (port === where.edgePort) return `EDGE_PORT=${where.edgePort}`;
  return `port ${String(port)}`;
}

/**
 * An operator-caused system error as the AppError the CLI prints in one line, or undefined when the error is not one
 * this file knows (a bug keeps its stack trace). `variable` names the port's variable when the caller knows it (ports
 * of different layers may be equal).
 */
export function startupError(error: unknown, where: Partial<Where> | undefined, variable?: string): AppError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const system = error as SystemError;
  const code = typeof system.code === 'string' ? system.code : '';
  const host = where?.host ?? String(system.address ?? system.hostname ?? '');
  if (system.syscall === 'listen' || system.syscall === 'bind') {
    const portName = portVariable(system.port, where, variable);
    if (code === 'EADDRINUSE') return ERRORS.PORT_IN_USE(portName, host);
    if (code === 'EACCES') return ERRORS.PORT_NOT_PERMITTED(portName);
    if (code === 'EADDRNOTAVAIL') return ERRORS.HOST_UNUSABLE(`HOST=${host} is not an address of this machine`, code, 'set HOST to one of its addresses (or 0.0.0.0 for all)');
    return ERRORS.LISTEN_FAILED(portName, host, code);
  }
  if (RESOLVE_CODES.has(code)) {
    const name = typeof system.hostname === 'string' ? system.hostname : host;
    const what = name === where?.host ? `HOST=${name}` : `host '${name}'`;
    return ERRORS.HOST_UNUSABLE(`${what} does not resolve`, code, 'set it to an address or a name of this machine');
  }
  if (FS_CODES.has(code) && typeof system.path === 'string') {
    const dir = where?.dataDir === undefined ? undefined : `DATA_DIR=${where.dataDir}`;
    return ERRORS.DATA_DIR_UNUSABLE(`cannot use ${system.path}`, code, 'make it a directory this user can read and write, or set DATA_DIR', dir);
  }
  if (system.name === 'SqliteError' && SQLITE_FILE_CODES.has(code)) {
    const dir = where?.dataDir === undefined ? 'DATA_DIR' : `DATA_DIR=${where.dataDir}`;
    return ERRORS.DATA_DIR_UNUSABLE(`SQLite cannot use a database file in ${dir}`, `${code}: ${String(system.message)}`, "check that its .sqlite files are this user's to read and write");
  }
  return undefined;
}

/**
 * One line, so stderr holds exactly one per failure: a usage error keeps its first line and the first line of its
 * usage (`--help` has the rest); any other message has its lines joined.
 */
function oneLine(error: AppError): string {
  const message = error.message.replace(/\n+Usage: /g, '; usage: ');
  if (error.code === ERRORS.USAGE.code) return message.split('\n')[0]?.trim() ?? '';
  return message.replace(/\s*\n\s*/g, '; ').trim();
}

/**
 * How the CLI reports `error`: an AppError or a known operator-caused system error as one line (exit 2 for usage and
 * configuration, 1 when the work itself failed), anything else as the bug it is: its stack, exit 1.
 */
export function describeFailure(error: unknown, where: Where | undefined): Failure {
  const known = isAppError(error) ? error : startupError(error, where);
  if (known !== undefined) {
    if (known.code === ERRORS.INTERNAL.code) return { line: known.message, exitCode: 1 };
    return { line: oneLine(known), exitCode: 2 };
  }
  return { line: error instanceof Error ? (error.stack ?? error.message) : String(error), exitCode: 1 };
}
