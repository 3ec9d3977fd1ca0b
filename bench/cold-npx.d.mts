export interface ColdInstall {
  readonly ms: number;
  readonly bytes: number;
  readonly packages: number;
  readonly names: string[];
  /** Installed packages with an install, preinstall or postinstall script (npm would run them without --ignore-scripts). */
  readonly withInstallScripts: string[];
}
export function folderBytes(dir: string): number;
export function installedPackages(modules: string): string[];
export function coldNpx(options: {
  env: NodeJS.ProcessEnv;
  cache: string;
  cwd: string;
  packageName: string;
  bin?: string;
  timeoutMs?: number;
  keep?: boolean;
}): ColdInstall;
