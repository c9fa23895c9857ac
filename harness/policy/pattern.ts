/**
 * Command patterns of bash rules and approver rules: `*` matches any characters including `/`
 * and spaces, `?` exactly one character, everything else literally; the whole command must
 * match (`docs/scenario-format.md`, "permissions.bash"). So `curl *` matches
 * `curl http://x`, and `ls*` matches `ls` and `ls -la`.
 */

const cache = new Map<string, RegExp>();

/** Compiles a command pattern to an anchored regular expression (cached by pattern). */
export function compileCommandPattern(pattern: string): RegExp {
  let regex = cache.get(pattern);
  if (!regex) {
    let source = '^';
    for (const char of pattern) {
      if (char === '*') source += '[\\s\\S]*';
      else if (char === '?') source += '[\\s\\S]';
      else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    regex = new RegExp(`${source}$`, 'u');
    cache.set(pattern, regex);
  }
  return regex;
}

/** True when `command` matches `pattern` as a whole. */
export function matchCommandPattern(pattern: string, command: string): boolean {
  return compileCommandPattern(pattern).test(command);
}
