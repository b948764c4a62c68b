#!/usr/bin/env node
import { loadConfig } from './config.js';
import { ERRORS } from './error-codes.js';
import { isAppError } from './errors.js';
import { createLogger } from './log.js';
import type { Command } from './server/command.js';
import { commands } from './server/commands.js';

/**
 * How long the process may live on once its command has ended. A server stopped by its drain time or by a second
 * signal leaves the work it cut behind (a render still waiting for the origin, with a timeout of its own); the command is
 * done, so that work must not hold the process. A command that leaves nothing running exits at once, as before.
 */
const EXIT_AFTER_RUN_MS = 1_000;

function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: sitestack <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'sitestack <command> --help' for a command's options.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const command: Command | undefined = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    console.error(`sitestack: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`Usage: ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  return command.run({ args, config, logger, out: process.stdout });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`sitestack: ${isAppError(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = isAppError(error) && error.code !== ERRORS.INTERNAL.code ? 2 : 1;
  },
).finally(() => setTimeout(() => process.exit(), EXIT_AFTER_RUN_MS).unref());
