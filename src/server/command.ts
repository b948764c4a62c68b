import type { Config } from '../config.js';
import type { Logger } from '../log.js';

/** What every CLI command receives: its own arguments (after the command name), the parsed config and a logger. */
export interface CommandContext {
  args: string[];
  config: Config;
  logger: Logger;
  /** Where command output for people goes (summaries, URLs); logs go to the logger. */
  out: NodeJS.WritableStream;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Resolves with the process exit code; long-running commands resolve when they have stopped. */
  run(context: CommandContext): Promise<number>;
}
