/**
 * How deep JSON text nests, counted without parsing: both ends of the wire (the server's request bodies, the
 * client's answers) refuse deep nesting before JSON.parse or any later recursive step can run out of stack. True when the text
 * opens more than `max` arrays or objects inside each other (strings skipped).
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
