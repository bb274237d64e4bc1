/** `npm test`'s temp folder for the test runners and the environment that points them at it. */
export declare function openRunTemp(
  realTmp: string,
  environment?: Record<string, string | undefined>,
): { dir: string; env: Record<'TMPDIR' | 'TMP' | 'TEMP' | 'ASK_USER_CLIENT_CACHE', string> }
/** Removes the folder; returns the names a test left in it (the runners' own caches aside). */
export declare function closeRunTemp(dir: string): string[]
