// Lint, including the layering rules (README "Layout"): each folder may import only what its runtime has.
import { builtinModules } from 'node:module'
import js from '@eslint/js'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'
import regexp from 'eslint-plugin-regexp'
import tseslint from 'typescript-eslint'

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const group = (regex, message) => ({ regex, message })

const NODE = group(
  `^(node:.*|(${builtinModules.map(escape).join('|')})(/.*)?)$`,
  'this layer runs without Node: use only zod and shared/',
)
const ELECTRON = group(
  '^electron(/.*)?$',
  'only electron/main and electron/preload may import electron (core/ runs in plain Node)',
)
const UI = group('^svelte(/.*)?$|(^|/)renderer(/|$)', 'only the renderer uses Svelte and renderer code')
const CORE = group('(^|/)core(/|$)', 'the companion core is reached over the UI channel or IPC, not imported here')
const MAIN = group('(^|/)(main|preload)(/|$)', 'Electron main/preload code stays in the Electron layer')
const AGENT = group('(^|/)(agent|cli)(/|$)', 'agent-side code is not imported here')
const INTEGRATIONS = group(
  '(^|/)integrations(/|$)',
  'harness knowledge (integrations/) is for the set-up, hook and Connect readers: cli/, renderer/, electron/main/',
)
const SERVER_LIBS = group('^(ws|@modelcontextprotocol/.*)$', 'this layer has no sockets of its own')
/** What the companion's plain-Node side (core/, relay/) never imports: Electron, the UI, the agent side, harnesses. */
const NODE_SIDE_EXCLUDES = [ELECTRON, UI, MAIN, AGENT, INTEGRATIONS]

// Files are ours or refused (docs/reliability.md): product code writes files only through
// core/private-files.ts (and its -sync twin), which check owner then mode, never follow a link and
// refuse what another user owns. Reads stay allowed everywhere.
const FS_WRITERS = [
  'open',
  'openSync',
  'write',
  'writeSync',
  'writev',
  'writevSync',
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'rename',
  'renameSync',
  'symlink',
  'symlinkSync',
  'link',
  'linkSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'unlink',
  'unlinkSync',
  'chmod',
  'chmodSync',
  'lchmod',
  'lchmodSync',
  'fchmod',
  'fchmodSync',
  'chown',
  'chownSync',
  'lchown',
  'lchownSync',
  'fchown',
  'fchownSync',
  'truncate',
  'truncateSync',
  'ftruncate',
  'ftruncateSync',
  'utimes',
  'utimesSync',
  'lutimes',
  'lutimesSync',
  'futimes',
  'futimesSync',
]
const FS_MODULES = ['node:fs', 'fs', 'node:fs/promises', 'fs/promises']
const FS_MESSAGE =
  'write files through core/private-files.ts (owner, then mode; no links; refuses what is not ours), not node:fs'
const FS_PATHS = FS_MODULES.map((name) => ({ name, importNames: FS_WRITERS, message: FS_MESSAGE }))
const FS_SOURCE = '/^(node:)?fs(\\/promises)?$/'
/** Whole-module imports of node:fs would reach the writers by name, so product code imports names only. */
const FS_WHOLE_MODULE = [
  {
    selector: `ImportDeclaration[source.value=${FS_SOURCE}] > :matches(ImportNamespaceSpecifier, ImportDefaultSpecifier)`,
    message: FS_MESSAGE,
  },
  { selector: `ImportExpression[source.value=${FS_SOURCE}]`, message: FS_MESSAGE },
  {
    selector: `VariableDeclarator[id.type!='ObjectPattern'] > CallExpression[callee.name='require'][arguments.0.value=${FS_SOURCE}]`,
    message: FS_MESSAGE,
  },
  {
    selector: `VariableDeclarator[init.callee.name='require'][init.arguments.0.value=${FS_SOURCE}] > ObjectPattern > Property[key.name=/^(${FS_WRITERS.join('|')})$/]`,
    message: FS_MESSAGE,
  },
]
/** The folders of product code (build, test and bench scripts are not). */
const PRODUCT = [
  'core/**',
  'cli/**',
  'agent/**',
  'electron/**',
  'shared/**',
  'integrations/**',
  'bin/**',
  'renderer/**',
  'phone/**',
]
/** The one module that may write; compile-cache.js runs before any bundle exists and keeps the same checks itself. */
const FILE_WRITERS = ['core/private-files.ts', 'core/private-files-sync.ts', 'bin/compile-cache.js']

/** `no-restricted-imports` for one layer (with the node:fs writers unless `fsWriters` is allowed). */
const layer = (files, patterns, { fsWriters = false } = {}) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths: fsWriters ? [] : FS_PATHS, patterns }] },
})

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      '.dist-staging/',
      'release/',
      'test-results/',
      'playwright-report/',
      '.svelte-check/',
      'bench-results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser }, globals: { ...globals.browser } },
    rules: { 'svelte/no-at-html-tags': 'error' },
  },
  // Parsing is linear in the input: no regex in the tree may backtrack or move super-linearly on
  // hostile text (agent text reaches shared/markdown and the notifications). Each rule reports the
  // uncertain cases too; a hit is fixed, or justified inline with why its input is bounded.
  {
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
      'regexp/no-misleading-capturing-group': ['error', { reportBacktrackingEnds: true }],
    },
  },
  { files: ['renderer/**', 'phone/**'], languageOptions: { globals: { ...globals.browser } } },
  layer(['shared/**'], [NODE, ELECTRON, UI, CORE, MAIN, AGENT, SERVER_LIBS, INTEGRATIONS]),
  // One file per harness (README "Layout"): runtime-free like shared/, and of ours it imports only shared/.
  layer(['integrations/**'], [NODE, ELECTRON, UI, CORE, MAIN, AGENT, SERVER_LIBS]),
  layer(['renderer/**'], [NODE, ELECTRON, CORE, MAIN, AGENT, SERVER_LIBS]),
  // The phone app (a browser, with the phone's keys): the window's renderer code, relay code that runs in a
  // browser, never Node, Electron, the core or the agent side.
  layer(['phone/**'], [NODE, ELECTRON, CORE, MAIN, AGENT, SERVER_LIBS, INTEGRATIONS]),
  layer(
    ['core/**'],
    [
      ...NODE_SIDE_EXCLUDES,
      group(
        '(^|/)relay/',
        'the core reaches the relay only from core/relay-bridge/ (imported when a relay is configured)',
      ),
    ],
  ),
  // The relay bridge (docs/relay.md "The bridge"): of relay/ only the desk end, the home's files and the renewal.
  layer(
    ['core/relay-bridge/**'],
    [
      ...NODE_SIDE_EXCLUDES,
      group(
        '(^|/)relay/(?!(exchange|home|renewal)(/|$))',
        'the bridge uses only relay/exchange, relay/home and relay/renewal',
      ),
    ],
  ),
  layer(['electron/main/**'], [UI, AGENT]),
  layer(
    ['electron/preload/**'],
    [UI, CORE, AGENT, SERVER_LIBS, INTEGRATIONS, group('(^|/)main(/|$)', 'the preload talks to main over IPC only')],
  ),
  layer(
    ['agent/**'],
    [ELECTRON, UI, CORE, MAIN, INTEGRATIONS, group('(^|/)cli(/|$)', 'the library does not depend on the CLI')],
  ),
  layer(['cli/**'], [ELECTRON, UI, MAIN]),
  // The relay (relay/README.md): shared/, Node, NATS and HPKE; of core/ only the private-file module.
  layer(
    ['relay/**'],
    [
      ...NODE_SIDE_EXCLUDES,
      group('(^|/)core/(?!private-files)', 'the relay uses only core/private-files*.ts of the core'),
    ],
  ),
  layer(['bin/**'], []),
  layer(['core/private-files.ts', 'core/private-files-sync.ts'], NODE_SIDE_EXCLUDES, {
    fsWriters: true,
  }),
  { files: PRODUCT, ignores: FILE_WRITERS, rules: { 'no-restricted-syntax': ['error', ...FS_WHOLE_MODULE] } },
  {
    files: ['bin/**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // The Svelte plugin's copy of this rule crashes on CommonJS function declarations (and is for .svelte only).
  { files: ['**/*.cjs'], rules: { 'svelte/no-inner-declarations': 'off' } },
  {
    files: ['test/**', 'scripts/**', 'bench/**', '*.config.*'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
