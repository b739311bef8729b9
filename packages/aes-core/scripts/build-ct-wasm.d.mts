// Types of build-ct-wasm.mjs, for the test that re-assembles ct.wat with it.
export declare const LAYOUT: Readonly<Record<string, number>>;
export declare function moduleText(): string;
export declare function assembleWat(text: string, name?: string): Promise<Uint8Array>;
export declare function generatedModuleText(bytes: Uint8Array): string;
