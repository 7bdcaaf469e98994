/** Type declarations for community-package.js (kept by hand; the JS file is the source of truth). */
/** The tarball installed into <userFolder>/.n8n/nodes like n8n's community installer does; returns the package folder. */
export declare function installPackage(userFolder: string, tarball: string, options?: { log?: (message: string) => void }): string;
