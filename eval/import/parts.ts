/**
 * One read interaction from the parts every recorder keeps (URL, method, request text, status,
 * response headers and text), for the importers whose formats store exactly these (WireMock's
 * journal, Hoverfly, MockServer, Talkback, Python responses). A chat completion whose request
 * text is absent is response-only: it is classified as a model exchange by its response and
 * its request body is `null` (the replay then serves it without comparing a request).
 */
import { InputError } from '../errors.ts';
import { responseFromText, type HeaderLists } from './body.ts';
import { isChatCompletionsPath, type ReadInteraction } from './classify.ts';
import { splitUri } from './common.ts';

/** The parts of one recorded interaction. */
export interface InteractionParts {
  /** Position in the recording (kept in non-model traffic). */
  index: number;
  /** Absolute URL, or a path when the recorder kept no host. */
  url: string;
  method: string;
  /** The decoded request body; `null` when the recorder kept none. */
  requestText: string | null;
  status: number;
  headers: HeaderLists;
  /** The decoded response body; `null` when none was recorded. */
  responseText: string | null;
  /** JSON path of the interaction in the source, for problems and notes. */
  at: string;
  /** ISO time the recording gives the interaction. */
  recordedAt?: string;
}

/**
 * The {@link ReadInteraction} of `parts`; notes about the response go to `notes`.
 *
 * @throws InputError (file, `<at>/request/body`, reason) for a chat-completions request whose
 *   recorded body is not a JSON object.
 */
export function interactionFromParts(
  parts: InteractionParts,
  file: string,
  notes: string[],
): ReadInteraction {
  const { index, url, method, requestText, status, headers, responseText, at, recordedAt } = parts;
  let split: { host: string; path: string };
  try {
    split = splitUri(url);
  } catch {
    split = { host: '', path: url.startsWith('/') ? url : `/${url}` };
  }
  const model = method === 'POST' && isChatCompletionsPath(split.path);
  let body: Record<string, unknown> | null = null;
  if (requestText !== null && requestText.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(requestText);
    } catch (error) {
      parsed = error;
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && !(parsed instanceof Error))
      body = parsed as Record<string, unknown>;
    else if (model)
      throw new InputError([
        {
          file,
          path: `${at}/request/body`,
          reason: `the request body is not a JSON object${parsed instanceof Error ? ` (${parsed.message})` : ''}`,
        },
      ]);
  }
  return {
    index,
    method,
    url,
    ...split,
    // Classified by its response: a chat completion whose request was not recorded.
    body: body ?? (model ? { messages: [] } : null),
    status,
    ...(recordedAt ? { recordedAt } : {}),
    exchange: () => ({
      request: { method, path: split.path, body },
      response: responseFromText(status, headers, responseText, `${at}/response`, notes),
    }),
  };
}
