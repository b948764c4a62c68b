#!/usr/bin/env node
import cluster from 'node:cluster';
import { loadConfig, type Config } from './config.js';
import { createLogger } from './log.js';
import type { Command } from './server/command.js';
import { commands } from './server/commands.js';
import { describeFailure } from './server/startup-errors.js';
import { WORKER_FAILED, type WorkerFailedMessage } from './server/shutdown.js';
import { stderr, stdoutStream } from './stdio.js';

/**
 * How long the process may live on once its command has ended. A server stopped by its drain time or by a second
 * signal leaves the work it cut behind (a render still waiting for the origin, with a timeout of its own); the command is
 * done, so that work must not hold the process. A command that leaves nothing running exits at once, as before.
 */
const EXIT_AFTER_RUN_MS = 1_000;

// Node's own stdio streams are still written by libraries; a reader gone away must not turn into an uncaught EPIPE.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

const out = stdoutStream();

function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: sitestack <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'sitestack <command> --help' for a command's options.`;
}

/** Known once the environment is read, so a failure message can name the variable behind a port or a directory. */
let config: Config | undefined;

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? stderr() : out).write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command: Command | undefined = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    stderr().write(`sitestack: unknown command '${name}': run 'sitestack --help' for the commands\n`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    out.write(`Usage: ${command.usage}\n\n${command.summary}\n`);
    return 0;
  }
  config = loadConfig();
  const logger = createLogger(config.logLevel);
  return command.run({ args, config, logger, out });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const { line, exitCode } = describeFailure(error, config);
    process.exitCode = exitCode;
    // A front worker's failure is the primary's to report, once for the whole fleet.
    if (cluster.isWorker && process.send !== undefined) process.send({ type: WORKER_FAILED, line } satisfies WorkerFailedMessage);
    else stderr().write(`sitestack: ${line}\n`);
  },
).finally(() => setTimeout(() => process.exit(), EXIT_AFTER_RUN_MS).unref());
