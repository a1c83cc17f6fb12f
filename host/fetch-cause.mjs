// Loaded before Electron's installer (`node --import`): a failed download's message is only "fetch failed",
// and the installer prints no cause. This puts the cause (e.g. "getaddrinfo ENOTFOUND github.com") in the
// message of fetch's own error, so the line `npm start` prints says why.
const originalFetch = globalThis.fetch;

globalThis.fetch = (...args) =>
  originalFetch(...args).catch((error) => {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
    if (cause) error.message = cause;
    throw error;
  });
