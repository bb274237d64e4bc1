// Placeholder: the Electron main process arrives with the desktop-shell issue.
export {}
