import { openSync, closeSync, fstatSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { ERRORS } from '../error-codes.js';
import { AccountStore, openOriginDatabase, PASSWORD_LIMITS, PASSWORD_RULE, userNameProblem, type ScryptParams } from '../origin/index.js';
import { parseCommandArgs } from './cli-args.js';
import type { Command } from './command.js';
import { ensureDataDir } from './data-dir.js';

const USAGE =
  'sitestack user add <name> [--password-file <file>]   (the password is read from stdin without it)\n' +
  '       sitestack user remove <name>\n' +
  '       sitestack user list';

/** Bytes read of a password file or stdin: a password at its longest limit in 4-byte characters, and a line break. */
const MAX_PASSWORD_BYTES = PASSWORD_LIMITS.maxLength * 4 + 2;

/** A password as a file or a pipe gives it: without the one line break that ends it, refused when not UTF-8 or too long. */
export function passwordFromBytes(bytes: Buffer, source: string): string {
  if (bytes.length > MAX_PASSWORD_BYTES) throw ERRORS.INVALID_USER(`${source} holds more than ${MAX_PASSWORD_BYTES} bytes: a password is at most ${PASSWORD_LIMITS.maxLength} characters`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw ERRORS.INVALID_USER(`${source} is not UTF-8 text`);
  }
  return text.replace(/\r?\n$/, '');
}

function readFileBounded(file: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw ERRORS.INVALID_USER(`cannot read the password file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw ERRORS.INVALID_USER(`the password file ${file} is not a regular file`);
    const buffer = Buffer.alloc(MAX_PASSWORD_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = readSync(fd, buffer, length, buffer.length - length, null);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

async function readStreamBounded(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buffer);
    length += buffer.length;
    if (length > MAX_PASSWORD_BYTES) break;
  }
  return Buffer.concat(chunks);
}

/** Standard input as the prompt needs it: a terminal can be put in raw mode, so the password is not echoed. */
export type PasswordInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/**
 * Reads one line from a terminal without echoing it: Enter ends it, Backspace takes back a character, Ctrl-C cancels.
 * The terminal is put back as it was however the line ends.
 */
export function promptHidden(input: PasswordInput, output: NodeJS.WritableStream, prompt: string): Promise<string> {
  output.write(prompt);
  input.setRawMode?.(true);
  const decoder = new StringDecoder('utf8');
  let text = '';
  return new Promise<string>((resolve, reject) => {
    const finish = (error?: Error) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      if (error === undefined) resolve(text);
      else reject(error);
    };
    const onEnd = () => finish();
    const onData = (chunk: Buffer | string) => {
      for (const char of typeof chunk === 'string' ? chunk : decoder.write(chunk)) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(ERRORS.USAGE('user add: cancelled'));
        if (char === '\u007f' || char === '\b') text = [...text].slice(0, -1).join('');
        else text += char;
        if (text.length > MAX_PASSWORD_BYTES) return finish(ERRORS.INVALID_USER(`a password is at most ${PASSWORD_LIMITS.maxLength} characters`));
      }
    };
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}

/** The password typed twice at a terminal; refused when the two differ. */
async function promptPassword(input: PasswordInput, output: NodeJS.WritableStream, name: string): Promise<string> {
  const first = await promptHidden(input, output, `Password for ${name} (${PASSWORD_RULE}): `);
  const second = await promptHidden(input, output, 'The same password again: ');
  if (first !== second) throw ERRORS.INVALID_USER('the two passwords typed differ');
  return first;
}

export interface UserCommandOptions {
  /** Where the password comes from without `--password-file`: typed at a terminal (not echoed) or piped. @default process.stdin */
  stdin?: PasswordInput;
  /** Where a terminal's password prompt is written. @default process.stderr */
  prompt?: NodeJS.WritableStream;
  /** @default SCRYPT_DEFAULTS */
  scrypt?: ScryptParams;
}

/** `sitestack user add|remove|list`: the desk's accounts in `$DATA_DIR/origin.sqlite`. */
export function createUserCommand(options: UserCommandOptions = {}): Command {
  return {
    name: 'user',
    summary: "add, remove or list the editor's desk users (the password from stdin or --password-file, never an argument)",
    usage: USAGE,
    async run({ args, config, out }) {
      const { positionals, values } = parseCommandArgs({ args, options: { 'password-file': { type: 'string' } }, allowPositionals: true }, USAGE);
      const [action, name, ...rest] = positionals;
      // Not repeated: an extra argument is most likely the password itself.
      if (rest.length > 0) throw ERRORS.USAGE('user: too many arguments: the password is never an argument; pipe it in or use --password-file', USAGE);
      if (action !== 'list' && (action === undefined || name === undefined)) throw ERRORS.USAGE('user: give an action and a name', USAGE);
      if (action !== 'add' && values['password-file'] !== undefined) throw ERRORS.USAGE('user: --password-file goes with add', USAGE);
      const problem = name === undefined ? undefined : userNameProblem(name);
      if (problem !== undefined) throw ERRORS.INVALID_USER(problem);
      ensureDataDir(config.dataDir);
      // Not seeded: the origin seeds a new file at its first start, whether or not users were added before.
      const db = openOriginDatabase(join(config.dataDir, 'origin.sqlite'), { seed: false });
      try {
        const accounts = new AccountStore(db, options.scrypt);
        if (action === 'list') {
          for (const user of accounts.userNames()) out.write(`${user}\n`);
          return 0;
        }
        if (action === 'remove') {
          if (!accounts.removeUser(name ?? '')) throw ERRORS.USER_NOT_FOUND(name ?? '');
          out.write(`removed user ${name ?? ''} and ended their sessions\n`);
          return 0;
        }
        if (action !== 'add') throw ERRORS.USAGE(`user: unknown action '${action ?? ''}'`, USAGE);
        const file = values['password-file'];
        const stdin = options.stdin ?? process.stdin;
        const password =
          file !== undefined
            ? passwordFromBytes(readFileBounded(file), file)
            : stdin.isTTY === true
              ? await promptPassword(stdin, options.prompt ?? process.stderr, name ?? '')
              : passwordFromBytes(await readStreamBounded(stdin), 'stdin');
        await accounts.addUser(name ?? '', password);
        out.write(`added user ${name ?? ''}: log in at /admin/login on the origin\n`);
        return 0;
      } finally {
        db.close();
      }
    },
  };
}

export const userCommand: Command = createUserCommand();
