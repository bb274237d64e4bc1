/**
 * Pure edits of JSON and JSONC config files: a value at a path, an item in an array at a path. Other
 * entries stay as they were; the text is written back as 2-space JSON (comments are not kept, so
 * callers keep a copy of a file that had any).
 */

/** A JSON object (what config files hold at their root). */
export type JsonObject = Record<string, unknown>

/** Thrown when a file is not JSON(C), or a path runs into something that is not an object or array. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError'
}

/**
 * Parses JSON or JSONC (`//` and `/* *\/` comments, trailing commas). Empty text is `{}`. Returns the
 * object and whether comments were dropped. Throws {@link ConfigFileError} unless the root is an object.
 */
export function parseJsonc(text: string): { value: JsonObject; hadComments: boolean } {
  if (text.trim() === '') return { value: {}, hadComments: false }
  const stripped = stripJsonc(text)
  let value: unknown
  try {
    value = JSON.parse(stripped.text)
  } catch (error) {
    throw new ConfigFileError(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigFileError('the file is not a JSON object')
  return { value: value as JsonObject, hadComments: stripped.hadComments }
}

function stripJsonc(text: string): { text: string; hadComments: boolean } {
  let out = ''
  let hadComments = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      const start = i
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++
      out += text.slice(start, i + 1)
    } else if (c === '/' && text[i + 1] === '/') {
      hadComments = true
      while (i < text.length && text[i] !== '\n') i++
      out += '\n'
    } else if (c === '/' && text[i + 1] === '*') {
      hadComments = true
      const end = text.indexOf('*/', i + 2)
      i = end === -1 ? text.length : end + 1
    } else out += c
  }
  return { text: out.replace(/,(\s*[}\]])/g, '$1'), hadComments }
}

/** The value at `path`, or undefined. */
export function getAt(root: JsonObject, path: readonly string[]): unknown {
  let current: unknown = root
  for (const key of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, key))
      return undefined
    current = (current as JsonObject)[key]
  }
  return current
}

function parentOf(root: JsonObject, path: readonly string[], create: boolean): JsonObject | undefined {
  let current = root
  for (const key of path.slice(0, -1)) {
    const next = current[key]
    if (next === undefined && create) current = current[key] = {}
    else if (next !== null && typeof next === 'object' && !Array.isArray(next)) current = next as JsonObject
    else if (next === undefined) return undefined
    else throw new ConfigFileError(`"${path.join('.')}" cannot be set: "${key}" is not an object`)
  }
  return current
}

/** Sets `value` at `path` (creating objects on the way); true when that changed anything. */
export function setAt(root: JsonObject, path: readonly string[], value: unknown): boolean {
  if (sameJson(getAt(root, path), value)) return false
  parentOf(root, path, true)![path.at(-1)!] = value
  return true
}

/** Deletes the key at `path` (and objects left empty by that); true when it was there. */
export function deleteAt(root: JsonObject, path: readonly string[]): boolean {
  const parent = parentOf(root, path, false)
  const key = path.at(-1)!
  if (parent === undefined || !Object.hasOwn(parent, key)) return false
  delete parent[key]
  if (path.length > 1 && Object.keys(parent).length === 0) deleteAt(root, path.slice(0, -1))
  return true
}

/** Adds `item` to the array at `path` (created when absent) unless it is there; true when added. */
export function addItem(root: JsonObject, path: readonly string[], item: string): boolean {
  const list = getAt(root, path)
  if (list === undefined) return setAt(root, path, [item])
  if (!Array.isArray(list)) throw new ConfigFileError(`"${path.join('.')}" is not an array`)
  if (list.includes(item)) return false
  list.push(item)
  return true
}

/** Takes `item` out of the array at `path`; true when it was there. */
export function removeItem(root: JsonObject, path: readonly string[], item: string): boolean {
  const list = getAt(root, path)
  if (!Array.isArray(list) || !list.includes(item)) return false
  parentOf(root, path, false)![path.at(-1)!] = list.filter((entry) => entry !== item)
  return true
}

/** Deep equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ak = Object.keys(a)
  const bk = Object.keys(b)
  return (
    ak.length === bk.length &&
    ak.every((key) => Object.hasOwn(b, key) && sameJson((a as JsonObject)[key], (b as JsonObject)[key]))
  )
}
