// Who may call the control API over IPC: only the main frame of a page served from the app origin.
// Typed over the few fields of Electron's IpcMainInvokeEvent it reads, so it is tested without Electron.
import { isAppUrl } from './navigation-policy.js';
import { APP_ORIGIN } from './window-options.js';

export interface SenderFrameLike {
  url: string;
  parent: unknown;
}

export interface InvokeEventLike {
  /** Null when the frame has navigated away or was destroyed before the call arrived. */
  senderFrame: SenderFrameLike | null;
  sender: { mainFrame: unknown };
}

/**
 * True only for the top-level frame of the sending webContents, on the app origin. A subframe (even a
 * same-origin one), a frame that is gone, or a page from anywhere else (https:, file:, another app host)
 * is refused.
 */
export function isTrustedSender(event: InvokeEventLike, origin: string = APP_ORIGIN): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (frame.parent !== null && frame.parent !== undefined) return false;
  if (frame !== event.sender.mainFrame) return false;
  return isAppUrl(frame.url, origin);
}
