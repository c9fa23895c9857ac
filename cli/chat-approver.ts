/**
 * Approval prompts in the terminal: the fully resolved call (tool, effect class, arguments,
 * resolved absolute paths with their access, the command, the rule and the reason the policy
 * asked) and an answer: approve, deny, or approve this shape for the rest of the session.
 */
import path from 'node:path';
import type { ApprovalAnswer, ApprovalRequest } from '../harness/policy/types.ts';

/** The lines shown before the question. Nothing is cut: the person approves exactly what runs. */
export function describeApproval(request: ApprovalRequest): string[] {
  const lines = [
    `approval needed: ${request.tool} (${request.effect}) call ${request.callId}`,
    `  arguments: ${request.argumentsText}`,
  ];
  for (const p of request.paths) lines.push(`  ${p.access}: ${p.path}`);
  if (request.command !== undefined) lines.push(`  command: ${request.command}`);
  lines.push(`  why: ${request.decision.reason}`);
  return lines;
}

/** The question itself. */
const APPROVAL_QUESTION = 'approve? [y]es / [n]o / [a]lways for this shape: ';

/** A typed answer → what it means; `undefined` when it is none of them. An empty line denies. */
export function parseApprovalAnswer(text: string): 'approve' | 'deny' | 'shape' | undefined {
  const answer = text.trim().toLowerCase();
  if (['y', 'yes', 'approve'].includes(answer)) return 'approve';
  if (['', 'n', 'no', 'deny'].includes(answer)) return 'deny';
  if (['a', 'always', 'shape'].includes(answer)) return 'shape';
  return undefined;
}

/**
 * The shape offered for "always": for a command, its first word followed by `*` (`npm *`); for
 * paths, the folder of the first path relative to the workspace followed by `/*`, or the file
 * itself when it sits at the root. Matching uses the command-pattern rules (`*` = anything).
 */
export function suggestedShape(request: ApprovalRequest, workspace: string): string {
  if (request.command !== undefined) {
    const first = request.command.trim().split(/\s+/)[0] ?? '';
    return `${first} *`;
  }
  const first = request.paths[0];
  if (!first) return '*';
  const relative = path.relative(workspace, first.path).split(path.sep).join('/');
  const folder = path.posix.dirname(relative);
  return folder === '.' ? relative : `${folder}/*`;
}

/** Reads one line after writing a prompt; `undefined` when input ended or the turn was cancelled. */
export type AskLine = (prompt: string) => Promise<string | undefined>;

/**
 * An approver that asks in the terminal. Unrecognised answers are asked again (three times,
 * then denied); end of input or a cancelled turn denies.
 * Contract: resolves; never rejects.
 */
export function terminalApprover(
  ask: AskLine,
  write: (text: string) => void,
  workspace: string,
): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  return async (request) => {
    write(`${describeApproval(request).join('\n')}\n`);
    for (let attempt = 0; attempt < 3; attempt++) {
      const line = await ask(APPROVAL_QUESTION);
      if (line === undefined) return 'deny';
      const meaning = parseApprovalAnswer(line);
      if (meaning === 'approve' || meaning === 'deny') return meaning;
      if (meaning === 'shape') {
        const offered = suggestedShape(request, workspace);
        const shape = await ask(`shape to approve for ${request.tool} [${offered}]: `);
        if (shape === undefined) return 'deny';
        return { approveShape: shape.trim() === '' ? offered : shape.trim() };
      }
      write(`  please answer y, n or a\n`);
    }
    return 'deny';
  };
}
