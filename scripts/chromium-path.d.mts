/** The Chromium the browser tests drive, or undefined when none is found. */
export declare function chromiumPath(): string | undefined
/** Flags for a headless Chromium on a machine with no network and as root (tests and the bench). */
export declare const CHROMIUM_ARGS: string[]
