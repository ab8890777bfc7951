/**
 * The address a test gives a service it does not start. Every service's configuration defaults to
 * the addresses `./scripts/start` uses (127.0.0.1:5005x); a test that left one unset would talk to
 * whatever runs there — a developer's platform, or another test run — and pass or fail for that
 * reason. Port 9 (discard) has no listener on these machines, so a call fails at once as UNAVAILABLE.
 */
export const NOT_RUNNING_ADDRESS = '127.0.0.1:9';
