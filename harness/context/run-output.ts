/**
 * A tool output shaped for the model (`context/spill.ts`): cut to the window-relative cap, the
 * whole output spilled to a file below the workspace to page through, a `compaction` event for
 * each cut; the spill folder gets its `.gitignore` the first time a file goes there.
 */
import path from 'node:path';
import type { HarnessConfig } from '../config.ts';
import type { UnstampedEvent } from '../events.ts';
import { ignoreFolder } from '../memory/session-store.ts';
import type { RunOptions } from '../run-types.ts';
import { approxTokens, shapeOutput, spillWhole } from './spill.ts';

/** Shapes one tool output: `fullText` is the whole output when the tool shaped its own (a command's head and tail). */
export type OutputShaper = (
  text: string,
  call: { callId: string; tool: string; fullText?: string },
) => Promise<string>;

/** The shaper of a run whose spill files go to `spillFolder` (relative to the workspace). */
export function outputShaper(
  options: RunOptions,
  config: HarnessConfig,
  spillFolder: string,
  emit: (event: UnstampedEvent) => void,
): OutputShaper {
  let spillReady = false;
  return async (text: string, call: { callId: string; tool: string; fullText?: string }): Promise<string> => {
    if (call.fullText !== undefined && call.fullText.length > text.length && config.context.layers.spill) {
      // The tool shaped its own output (a command's head and tail): keep the whole of it for paging.
      const kept = await spillWhole(call.fullText, {
        sandbox: options.sandbox,
        workspace: options.workspace,
        folder: spillFolder,
        callId: call.callId,
      });
      if (kept) {
        if (!spillReady) {
          spillReady = true;
          await ignoreFolder(path.join(options.workspace, spillFolder)).catch(() => undefined);
        }
        emit({
          type: 'compaction',
          layer: 'spill',
          trigger: 'auto',
          callId: call.callId,
          beforeTokens: approxTokens(call.fullText),
          afterTokens: approxTokens(text),
          detail: `${call.tool} output of ${call.fullText.length} characters shaped by the tool; full output in ${kept}`,
          artifact: kept,
        });
        text = `${text}
[the full output (${call.fullText.length} characters) is saved in ${kept}: page through it with read_file (offset/limit)]`;
      }
    }
    const shaped = await shapeOutput(text, {
      config,
      callId: call.callId,
      spill: { sandbox: options.sandbox, workspace: options.workspace, folder: spillFolder },
    });
    if (shaped.spillFile && !spillReady) {
      spillReady = true;
      await ignoreFolder(path.join(options.workspace, spillFolder)).catch(() => undefined);
    }
    if (shaped.cut > 0)
      emit({
        type: 'compaction',
        layer: shaped.spillFile ? 'spill' : 'cap',
        trigger: 'auto',
        callId: call.callId,
        beforeTokens: shaped.totalTokens,
        afterTokens: shaped.keptTokens,
        detail: `${call.tool} output of ${text.length} characters cut to head and tail (${shaped.cut} characters elided)${shaped.spillFile ? `; full output in ${shaped.spillFile}` : ''}`,
        ...(shaped.spillFile ? { artifact: shaped.spillFile } : {}),
      });
    return shaped.text;
  };
}
