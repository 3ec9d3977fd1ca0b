import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from './vendor/yaml.js';
import { ConfigError } from './config-error.js';
import { errorMessage, isRecord } from '@cadence-detect/errors';

/** A configuration file read as data (YAML or JSON: a configuration never runs code). */
export interface ConfigFile {
  readonly filepath: string;
  /** The file's content; null when it holds nothing (comments only, or package.json without `cadence`). */
  readonly data: unknown;
}

/** Searched from the working directory upwards; the first one that holds something wins. */
const PROJECT_FILES = [
  '.cadence.yaml',
  '.cadence.yml',
  '.cadence.json',
  '.cadencerc',
  '.cadencerc.yaml',
  '.cadencerc.yml',
  '.cadencerc.json',
  'package.json',
];
/** Found, never loaded: a configuration must never run code (docs/configuration.md). */
const PROJECT_SCRIPTS = [
  '.cadence.js',
  '.cadence.cjs',
  '.cadence.mjs',
  '.cadence.ts',
  '.cadencerc.js',
  '.cadencerc.cjs',
  '.cadencerc.mjs',
  '.cadencerc.ts',
  'cadence.config.js',
  'cadence.config.cjs',
  'cadence.config.mjs',
  'cadence.config.ts',
];
/** In the user's configuration folder. */
const USER_FILES = ['config.yaml', 'config.yml', 'config.json'];
const USER_SCRIPTS = ['config.js', 'config.cjs', 'config.mjs', 'config.ts'];
export const SCRIPT_EXTENSION = /\.(c|m)?(j|t)s$/i;

/** `$XDG_CONFIG_HOME/cadence` (an absolute XDG_CONFIG_HOME only, as the XDG spec says), else `~/.config/cadence`. */
export function userConfigDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'cadence');
  return path.join(env.HOME || os.homedir(), '.config', 'cadence');
}

/** The user's own configuration file, or null. */
export function findUserFile(env: NodeJS.ProcessEnv, warnings: string[]): ConfigFile | null {
  const dir = userConfigDir(env);
  warnAboutScripts(dir, USER_SCRIPTS, warnings);
  for (const name of USER_FILES) {
    const file = path.join(dir, name);
    if (isFile(file)) return { filepath: file, data: readConfigFile(file) };
  }
  return null;
}

/**
 * The nearest project file from `cwd` upwards, stopping at the home folder (or the root when `cwd`
 * is not under it). Read here rather than with cosmiconfig: cosmiconfig also reads its own "meta"
 * configuration from the working directory (`.config/config.js`, a `cosmiconfig` key in
 * package.json), runs JavaScript found there, and lets it add search places.
 */
export function findProjectFile(cwd: string, env: NodeJS.ProcessEnv, warnings: string[]): ConfigFile | null {
  const home = path.resolve(env.HOME || os.homedir());
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    warnAboutScripts(dir, PROJECT_SCRIPTS, warnings);
    for (const name of PROJECT_FILES) {
      const file = path.join(dir, name);
      if (!isFile(file)) continue;
      const found = readProjectPlace(file);
      if (found) return found;
    }
    if (dir === home || dir === path.dirname(dir)) return null;
  }
}

/** A file named by `--config`. */
export function readNamedFile(cwd: string, configPath: string): ConfigFile {
  const file = path.resolve(cwd, configPath);
  if (SCRIPT_EXTENSION.test(file)) {
    throw new ConfigError(
      `Refused configuration file ${file}: JavaScript configuration files are not allowed (use YAML or JSON)`,
      undefined,
      file,
    );
  }
  if (!isFile(file)) throw new ConfigError(`Configuration file not found: ${file}`, undefined, file);
  return { filepath: file, data: readConfigFile(file) };
}

/** A search place that holds nothing (an empty file, package.json without `cadence`) lets the search go on. */
function readProjectPlace(file: string): ConfigFile | null {
  if (path.basename(file) === 'package.json') {
    const manifest = parseContent(file, readFileSync(file, 'utf8'), 'json');
    const section = isRecord(manifest) ? manifest.cadence : undefined;
    return section === undefined ? null : { filepath: file, data: section };
  }
  const content = readFileSync(file, 'utf8');
  if (content.trim() === '') return null;
  return { filepath: file, data: parseContent(file, content, kindOf(file)) ?? null };
}

/** A configuration's text read from elsewhere (a file at another commit), named `label` in messages; `file` says YAML or JSON. */
export function parseConfigText(label: string, content: string, file: string): ConfigFile {
  return { filepath: label, data: parseContent(label, content, kindOf(file)) ?? null };
}

function readConfigFile(file: string): unknown {
  return parseContent(file, readFileSync(file, 'utf8'), kindOf(file)) ?? null;
}

function kindOf(file: string): 'json' | 'yaml' {
  return file.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
}

function parseContent(file: string, content: string, kind: 'json' | 'yaml'): unknown {
  try {
    return kind === 'json' ? (JSON.parse(content) as unknown) : (parseYaml(content) as unknown);
  } catch (error) {
    const first = errorMessage(error).split('\n')[0] ?? '';
    throw new ConfigError(
      `Invalid configuration file ${file}: not valid ${kind === 'json' ? 'JSON' : 'YAML'} (${first})`,
      undefined,
      file,
    );
  }
}

function warnAboutScripts(dir: string, names: readonly string[], warnings: string[]): void {
  for (const name of names) {
    const file = path.join(dir, name);
    if (existsSync(file))
      warnings.push(`Ignored ${file}: JavaScript configuration files are never loaded (use YAML or JSON)`);
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
