/**
 * Secret scan of a finished cassette (`docs/recording-format.md`, "Record"): key
 * shapes anywhere, e-mail addresses in headers. `record` refuses to write a cassette with a
 * finding; `import` warns (public fixtures keep some addresses on purpose).
 */

/** One suspected secret. `excerpt` is masked: only the first characters of the match are shown. */
export interface SecretFinding {
  /** JSON pointer of the string that holds it, e.g. `/exchanges/0/response/headers/x-contact`. */
  path: string;
  /**
   * Which pattern matched: `api-key` (model providers), `google-api-key`, `access-token` (code
   * hosts, clouds, chat and package registries), `private-key`, `bearer-token`, `email-in-header`.
   */
  kind: 'api-key' | 'google-api-key' | 'access-token' | 'private-key' | 'bearer-token' | 'email-in-header';
  excerpt: string;
}

/**
 * Key shapes checked in every string of the cassette. Beside the model providers' keys, the
 * credentials a tool result most often carries into a conversation (a `.env`, a CI log, a config
 * file read by the agent), with the prefixes their issuers document and gitleaks' rules use
 * (github.com/gitleaks/gitleaks, `config/gitleaks.toml`): GitHub tokens (`ghp_`, `gho_`, `ghu_`,
 * `ghs_`, `ghr_`, `github_pat_`), GitLab (`glpat-`), AWS access key ids (`AKIA`, `ASIA`), Slack
 * (`xoxb-` …), Hugging Face (`hf_`), Stripe live keys, npm (`npm_`), PEM private keys.
 */
const KEY_PATTERNS: { kind: SecretFinding['kind']; pattern: RegExp }[] = [
  { kind: 'api-key', pattern: /\b(sk-(proj-)?|gsk_|xai-)[A-Za-z0-9_-]{20,}/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  {
    kind: 'access-token',
    pattern:
      /\b(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_-]{20,}|(AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9-]{10,}|hf_[A-Za-z]{34,}|[rs]k_live_[A-Za-z0-9]{24,}|npm_[A-Za-z0-9]{36,})\b/g,
  },
  { kind: 'private-key', pattern: /-----BEGIN (RSA |EC |OPENSSH |DSA |ENCRYPTED )?PRIVATE KEY-----/g },
  { kind: 'bearer-token', pattern: /Bearer\s+\S{16,}/g },
];

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/**
 * Scans any JSON value (a cassette, a body) and returns every finding in document order.
 * Strings under a `headers` object are also checked for e-mail addresses. Never throws.
 */
export function scanForSecrets(value: unknown): SecretFinding[] {
  const findings: SecretFinding[] = [];
  walk(value, '', false, findings);
  return findings;
}

function walk(value: unknown, path: string, inHeaders: boolean, findings: SecretFinding[]): void {
  if (typeof value === 'string') {
    for (const { kind, pattern } of KEY_PATTERNS)
      for (const match of value.matchAll(pattern)) findings.push({ path, kind, excerpt: mask(match[0]) });
    if (inHeaders)
      for (const match of value.matchAll(EMAIL))
        findings.push({ path, kind: 'email-in-header', excerpt: mask(match[0]) });
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) walk(item, `${path}/${i}`, inHeaders, findings);
    return;
  }
  if (typeof value === 'object' && value !== null)
    for (const [key, member] of Object.entries(value))
      walk(member, `${path}/${escapePointer(key)}`, inHeaders || key.toLowerCase() === 'headers', findings);
}

function mask(text: string): string {
  return text.length <= 8 ? '***' : `${text.slice(0, 8)}…(${text.length} chars)`;
}

/** Escapes one JSON pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
