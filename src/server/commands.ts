import type { Command } from './command.js';
import { edgeCommand } from './edge-command.js';

/** Every `sitestack` command, in the order `--help` lists them. */
export const commands: Command[] = [edgeCommand];
