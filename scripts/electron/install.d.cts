/** The folder of the project's `electron` package, or undefined when it is not installed. */
export declare function electronPackageDir(root: string): string | undefined
/** The Electron version the project's `electron` package installs. */
export declare function electronVersion(packageDir: string): string
/** The Electron executable as node_modules/electron/index.js resolves it (it may not exist). */
export declare function electronExecutablePath(
  packageDir: string,
  env?: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
): string
/** The folder of an unpacked Electron (what electron-builder takes as electronDist). */
export declare function electronDistDir(packageDir: string, env?: NodeJS.ProcessEnv): string
export type EnsureElectronResult = { ok: true; executable: string; installed: boolean } | { ok: false; message: string }
/** Makes sure the project's Electron executable exists, running Electron's installer when it does not. */
export declare function ensureElectron(
  root: string,
  options?: { env?: NodeJS.ProcessEnv; log?: (line: string) => void },
): EnsureElectronResult
