/** Where an activation was heard: the live notification's own event, or `Notification.handleActivation` (Windows). */
export type ActivationSource = 'instance' | 'handler'

interface Entry {
  askId: string | undefined
  instance: number
  handler: number
}

/** How many tags are remembered (oldest forgotten first); far more than notifications live at once. */
const REMEMBERED = 512

/**
 * Which ask each notification tag belongs to, and how many activations each source reported for it.
 * Windows reports one activation twice, through the instance's event and through the
 * `handleActivation` callback, in either order, or only through the callback once the toast's object
 * is gone. {@link take} lets exactly one of each pair through: a report is the second half of an
 * activation when the other source has already reported more for that tag than this one has.
 */
export class ActivationLedger {
  private readonly entries = new Map<string, Entry>()

  /** Records that `tag` is the notification of `askId` (undefined: a notification of no one ask). */
  register(tag: string, askId: string | undefined): void {
    this.entries.set(tag, { askId, instance: 0, handler: 0 })
    if (this.entries.size > REMEMBERED) this.entries.delete(this.entries.keys().next().value as string)
  }

  /** The ask of a tag of this run; undefined for a tag this run never registered (an earlier run's). */
  askOf(tag: string): string | undefined {
    return this.entries.get(tag)?.askId
  }

  /** True when this report is a new activation; false when it is the other half of one already taken. */
  take(tag: string, source: ActivationSource): boolean {
    let entry = this.entries.get(tag)
    if (!entry) {
      this.register(tag, undefined)
      entry = this.entries.get(tag) as Entry
    }
    const other = source === 'instance' ? entry.handler : entry.instance
    const mine = entry[source]
    entry[source] = mine + 1
    return other <= mine
  }
}
