// Types for build.mjs (plain JavaScript, run by Node in `npm run build`; the tests call it too).
export declare const RUN_VIEW_OUT: string;
export declare const RUN_VIEW_CSP: string;
/** Builds the View's one document; writes it to `outFile` (dist/mcp-app/run.html by default) unless null. */
export declare function buildRunView(options?: { outFile?: string | null; minify?: boolean }): Promise<string>;
