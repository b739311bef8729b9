// Types of build-stamp.mjs, for the CLI, which checks a layer's build before measuring it.
export declare const stampFile: string;
export interface StaleSources {
  changed: string[];
  added: string[];
  removed: string[];
}
export declare function sourceDigests(packageDir: string): Record<string, string>;
export declare function distDigest(packageDir: string): string;
export declare function writeStamp(packageDir: string): void;
export declare function staleSources(packageDir: string): StaleSources | undefined;
export declare function describeStale(stale: StaleSources, shown?: number): string;
