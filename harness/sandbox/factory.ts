/**
 * `createSandbox(kind, workspace)`: the sandbox a configuration asks for (`sandbox.kind`).
 * `auto` is bubblewrap on Linux and Seatbelt on macOS; when the chosen sandbox is missing or
 * unusable, `exec` rejects with `SandboxUnavailableError` (bash answers `sandbox_unavailable`
 * with an install hint) and no command runs unboxed. `none` runs commands without isolation and
 * is used only when the configuration says so explicitly.
 */
import type { HarnessConfig } from '../config.ts';
import { BwrapSandbox, type BwrapOptions } from './bwrap.ts';
import type { SandboxLimits } from './limits.ts';
import { LocalSandbox } from './local.ts';
import { SeatbeltSandbox } from './seatbelt.ts';
import type { Sandbox } from './types.ts';

/** `sandbox.kind` of the configuration. */
export type SandboxKind = HarnessConfig['sandbox']['kind'];

/** Options of {@link createSandbox}; all optional. */
export interface CreateSandboxOptions {
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** Path of the bwrap binary (a bogus path simulates a host without bubblewrap). */
  bwrapBinary?: string;
  /** Path of sandbox-exec. */
  seatbeltBinary?: string;
  limits?: Partial<SandboxLimits>;
  /** Passed to {@link BwrapSandbox}. */
  bwrap?: Omit<BwrapOptions, 'binary' | 'limits'>;
}

/** The concrete kind `auto` resolves to on a platform: `bwrap` on Linux, `seatbelt` on macOS, `undefined` elsewhere. */
export function autoKind(platform: NodeJS.Platform): 'bwrap' | 'seatbelt' | undefined {
  return platform === 'linux' ? 'bwrap' : platform === 'darwin' ? 'seatbelt' : undefined;
}

/**
 * The sandbox for `kind` over `workspace` (an absolute real path). Never throws for a missing
 * sandbox: the returned sandbox's files work and its `exec` rejects with the reason and hint.
 */
export function createSandbox(
  kind: SandboxKind,
  workspace: string,
  options: CreateSandboxOptions = {},
): Sandbox {
  const platform = options.platform ?? process.platform;
  const concrete = kind === 'auto' ? autoKind(platform) : kind;
  const limits = options.limits ? { limits: options.limits } : {};
  switch (concrete) {
    case 'none':
      return new LocalSandbox({ allowExec: true });
    case 'bwrap':
      if (platform !== 'linux')
        return new LocalSandbox({
          allowExec: false,
          unavailable: {
            message: `bubblewrap runs only on Linux (this is ${platform})`,
            hint: 'on macOS use sandbox.kind "seatbelt" (or "auto"); set sandbox.kind to "none" explicitly to run commands without isolation',
          },
        });
      return new BwrapSandbox(workspace, {
        ...options.bwrap,
        ...limits,
        ...(options.bwrapBinary ? { binary: options.bwrapBinary } : {}),
      });
    case 'seatbelt':
      return new SeatbeltSandbox(workspace, {
        platform,
        ...limits,
        ...(options.seatbeltBinary ? { binary: options.seatbeltBinary } : {}),
      });
    default:
      return new LocalSandbox({
        allowExec: false,
        unavailable: {
          message: `no sandbox is known for platform ${platform}`,
          hint: 'run on Linux (bubblewrap) or macOS (Seatbelt), or set sandbox.kind to "none" explicitly to run commands without isolation',
        },
      });
  }
}
