/** The JavaScript file behind an installed package's bin, to run with `process.execPath` on every OS. */
export declare function packageBin(root: string, pkg: string, name?: string): string
