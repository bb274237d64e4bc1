/** The Chromium the browser tests drive, or undefined when none is found. */
export declare function chromiumPath(): string | undefined
