/**
 * File operations on the real file system, shared by every sandbox that runs on the host
 * (`none`, `bwrap`, `seatbelt`): the harness process itself is not boxed, so its file tools go
 * through `node:fs` at the paths the path policy resolved — opened below the workspace without
 * following links (`beneath.ts`) when the caller gives the root, as the file tools and the
 * harness's own files do. Commands are left to subclasses.
 */
import { appendFile, mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listBeneath, readBeneath, writeBeneath } from './beneath.ts';
import type { DirEntry, ExecOptions, ExecResult, FileAccessOptions, Sandbox } from './types.ts';

/** `readFile`, `writeFile`, `list`, `realpath`, `exists` through `node:fs`; `exec` is the subclass's. */
export abstract class HostFileSandbox implements Sandbox {
  abstract readonly kind: string;

  async readFile(file: string, options: FileAccessOptions = {}): Promise<string> {
    if (options.root !== undefined)
      return (await readBeneath(options.root, file, () => options.allowHardLinks === true)).text;
    return readFile(file, 'utf8');
  }

  /** Creates missing parent folders, then writes (or appends) UTF-8 text. */
  async writeFile(file: string, content: string, options: FileAccessOptions = {}): Promise<void> {
    if (options.root !== undefined) {
      await writeBeneath(options.root, file, content, options.append ? { append: true } : {});
      return;
    }
    await mkdir(path.dirname(file), { recursive: true });
    if (options.append) await appendFile(file, content, 'utf8');
    else await writeFile(file, content, 'utf8');
  }

  /** Entries sorted by name; links are reported as `symlink`, not followed; files carry their size in bytes. */
  async list(dir: string, options: FileAccessOptions = {}): Promise<DirEntry[]> {
    if (options.root !== undefined) return listBeneath(options.root, dir);
    const entries = await readdir(dir, { withFileTypes: true });
    const out: DirEntry[] = [];
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const kind = entry.isSymbolicLink()
        ? 'symlink'
        : entry.isDirectory()
          ? 'dir'
          : entry.isFile()
            ? 'file'
            : 'other';
      const item: DirEntry = { name: entry.name, kind };
      if (kind === 'file') item.size = (await stat(path.join(dir, entry.name))).size;
      out.push(item);
    }
    return out;
  }

  async realpath(file: string): Promise<string> {
    return realpath(file);
  }

  async exists(file: string): Promise<boolean> {
    try {
      await stat(file);
      return true;
    } catch {
      return false;
    }
  }

  abstract exec(command: string, options: ExecOptions): Promise<ExecResult>;
}
