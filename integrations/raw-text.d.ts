// A file imported with `?raw` is its text (the bundler inlines it): how the opencode plugin, a
// source file of its own, reaches the set-up in every install without a path to look up.
declare module '*?raw' {
  const text: string
  export default text
}
