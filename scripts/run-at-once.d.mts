export interface Step {
  title: string
  command: string
  args: string[]
  cwd: string
}
export interface StepResult {
  title: string
  ok: boolean
  output: string
}
export function runAtOnce(steps: Step[], report: (result: StepResult) => void, limit?: number): Promise<StepResult[]>
