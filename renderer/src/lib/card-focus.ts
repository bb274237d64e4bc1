/**
 * Moves the keyboard into the card on screen, so that the keys its footer promises act on it at once:
 * its first question's first control (focused, never picked), else the card itself (an approval: no
 * button is focused for the person, so a stray Enter decides nothing). Nothing when no card is shown.
 */
export function focusShownCard(root: ParentNode = document): void {
  const card = root.querySelector<HTMLElement>('[data-testid="ask-view"], [data-testid="approval-card"]')
  if (!card) return
  const first = card.querySelector<HTMLElement>(
    '[data-question-index="0"] input:not([disabled]), [data-question-index="0"] textarea:not([readonly])',
  )
  ;(first ?? card).focus()
}
