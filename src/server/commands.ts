import type { Command } from './command.js';
import { originCommand } from './origin-command.js';

/** Every `sitestack` command, in the order `--help` lists them. */
export const commands: Command[] = [originCommand];
