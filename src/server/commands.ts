import { benchCommand } from './bench-command.js';
import type { Command } from './command.js';
import { contentBuildCommand } from './content-build-command.js';
import { edgeCommand } from './edge-command.js';
import { fleetCommand } from './fleet-command.js';
import { frontCommand } from './front-command.js';
import { indexCommand } from './index-command.js';
import { originCommand } from './origin-command.js';
import { popularityCommand } from './popularity-command.js';
import { proxyCommand } from './proxy-command.js';
import { purgeCommand } from './purge-command.js';
import { songsCommand } from './songs-command.js';
import { startCommand } from './start-command.js';
import { userCommand } from './user-command.js';

/** Every `sitestack` command, in the order `--help` lists them. */
export const commands: Command[] = [
  startCommand,
  frontCommand,
  originCommand,
  edgeCommand,
  proxyCommand,
  contentBuildCommand,
  indexCommand,
  popularityCommand,
  purgeCommand,
  fleetCommand,
  songsCommand,
  userCommand,
  benchCommand,
];
