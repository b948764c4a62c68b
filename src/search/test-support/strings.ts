import { serialize } from 'node:v8';

/** Whether V8 holds a string in one byte a character: its serializer tags such a string `"` (after any padding). */
export function isOneByteString(text: string): boolean {
  const bytes = serialize(text);
  let at = 2;
  while (bytes[at] === 0) at++;
  return bytes[at] === 0x22;
}
