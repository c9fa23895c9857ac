/**
 * What looks like a secret: variable names that usually hold credentials (`$GH_TOKEN`) and files
 * that usually do (`.env`, `.netrc`, SSH and cloud keys, `/proc/PID/environ`). Used by the
 * exfiltration rule: reading a secret and reaching the network in one command is a hard deny
 * (handed case F03, google/site-kit-wp#12499).
 */
import type { ShellWord } from '../shell-words.ts';

/** Variable names that usually hold credentials. */
export const SECRET_NAME =
  /(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH|COOKIE|SESSION)/i;
/** Files that usually hold credentials (matched against a path or an argument's text). */
export const SECRET_FILE =
  /(^|[/@=<])(\.env(\.[\w.-]+)?|\.envrc|\.netrc|\.npmrc|\.pypirc|\.git-credentials|id_(rsa|dsa|ecdsa|ed25519)\b[^/]*|[^/]*\.pem\b|[^/]*\.key\b|credentials(\.json)?|\.aws\/|\.ssh\/|\.gnupg\/|\.kube\/config|\.docker\/config\.json|\/proc\/[^/]+\/environ)/;

/** True when an argument names a credential variable (`$GH_TOKEN`, `${API_KEY}`) or a credential file. */
export function secretsInArgs(args: readonly ShellWord[]): boolean {
  for (const arg of args) {
    for (const match of arg.text.matchAll(/\$\{?!?([A-Za-z_][A-Za-z0-9_]*)/g))
      if (SECRET_NAME.test(match[1]!)) return true;
    if (SECRET_FILE.test(arg.value ?? arg.text)) return true;
  }
  return false;
}

/** True when a path (as written or resolved) looks like a credential file. */
export function isSecretPath(file: string): boolean {
  return SECRET_FILE.test(file);
}
