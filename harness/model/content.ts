/**
 * Message `content` as a string or a list of parts (`model/types.ts`, {@link MessageContent}):
 * the text of any content, and the parts that are not text, so every layer that reads or counts
 * content handles both shapes (chat-completions API reference, "messages": system, user,
 * assistant and tool messages all accept a list of parts).
 */
import type { ContentPart, ImagePart, MessageContent } from './types.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The text of a message `content`: a string as it is; a list of parts → the `text` of its text
 * parts joined with `''` (other parts contribute nothing); `null`/absent → `''`.
 */
export function contentText(content: MessageContent | null | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (isObj(part) && typeof part.text === 'string') text += part.text;
  return text;
}

/** The parts of a `content` list that carry no text (images, audio, files), in order; `[]` for a string. */
export function nonTextParts(content: MessageContent | null | undefined): ContentPart[] {
  if (!Array.isArray(content)) return [];
  return content.filter((part) => !(isObj(part) && part.type === 'text' && typeof part.text === 'string'));
}

/** True for an `image_url` part with a string URL. */
export function isImagePart(part: unknown): part is ImagePart {
  return (
    isObj(part) &&
    part.type === 'image_url' &&
    isObj(part.image_url) &&
    typeof part.image_url.url === 'string'
  );
}
