/** Writes the `cli` folder of the packaged app into `staging` (emptied first) from `root`'s build. */
export declare function stageCli(root: string, staging: string): void
