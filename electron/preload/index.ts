// Placeholder: the preload bridge arrives with the desktop-shell issue.
export {}
