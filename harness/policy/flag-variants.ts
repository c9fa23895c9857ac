/**
 * Other spellings of the same simple command, for deny rules only: a deny rule written for
 * `rm -r* *` must also catch `rm -fr dist`, `rm -f -r dist` and `RM -rf dist` (handed case E02,
 * claude-code#37662: a deny rule dodged by reordering or splitting flags). A command is denied
 * when any of its spellings matches a deny rule; allow and ask are decided by the normalised
 * spelling alone, so variants can only make a verdict stricter.
 */

/** Splits a normalised command into words: spaces separate, single-quoted stretches stay whole. */
export function splitNormalised(command: string): string[] {
  const words: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (const char of command) {
    if (char === "'") {
      quoted = !quoted;
      current += char;
      started = true;
    } else if (char === ' ' && !quoted) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (started) words.push(current);
  return words;
}

const SHORT_CLUSTER = /^-[A-Za-z]+$/;
const MAX_LETTERS = 8;
const MAX_VARIANTS = 64;

/**
 * Spellings of `command` (itself excluded): every run of short-option words (`-fr`, `-f -r`)
 * rewritten as one cluster and as single options, each letter moved to the front once; and the
 * program name in lower case. Bounded: at most 64 variants.
 */
export function flagVariants(command: string): string[] {
  const words = splitNormalised(command);
  const out = new Set<string>();
  const bases = [words];
  const lower = words[0]?.toLowerCase();
  if (lower !== undefined && lower !== words[0]) {
    const lowered = [lower, ...words.slice(1)];
    bases.push(lowered);
    out.add(lowered.join(' '));
  }
  for (const base of bases) {
    let i = 1;
    while (i < base.length && out.size < MAX_VARIANTS) {
      if (!SHORT_CLUSTER.test(base[i]!)) {
        i += 1;
        continue;
      }
      let end = i;
      while (end < base.length && SHORT_CLUSTER.test(base[end]!)) end += 1;
      const letters = [...new Set(base.slice(i, end).flatMap((w) => [...w.slice(1)]))];
      const orders =
        letters.length <= MAX_LETTERS
          ? [letters, ...letters.map((l) => [l, ...letters.filter((x) => x !== l)])]
          : [letters];
      for (const order of orders) {
        for (const spelling of [[`-${order.join('')}`], order.map((l) => `-${l}`)]) {
          if (out.size >= MAX_VARIANTS) break;
          out.add([...base.slice(0, i), ...spelling, ...base.slice(end)].join(' '));
        }
      }
      i = end;
    }
  }
  out.delete(command);
  return [...out];
}
