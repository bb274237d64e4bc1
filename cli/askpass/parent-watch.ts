import { pidExists } from '../../agent/process-check'
import { serverClosedConnection } from './peer-closed'

/**
 * Calls `onGone` once when the process's parent `ppid` is gone: it exited (this process was
 * re-parented) or no longer answers signal 0, or, when `watchConnection` (the parent is ssh), the
 * server closed ssh's connection (see {@link serverClosedConnection}). Polls every `intervalMs`
 * (default 500); the timer does not keep the process alive. Returns the stop function.
 */
export function watchParent(ppid: number, onGone: () => void, watchConnection = false, intervalMs = 500): () => void {
  const timer = setInterval(() => {
    if (pidExists(ppid) && process.ppid === ppid && !(watchConnection && serverClosedConnection(ppid))) return
    clearInterval(timer)
    onGone()
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
