// Placeholder: the `ask-user` dispatcher arrives with the foundation and agent-side issues.
process.stdout.write('ask-user: not built yet\n')
