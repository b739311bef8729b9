// Types of build-wasm.mjs, for the test that re-assembles sha1.wat with it.
export declare function assembleWat(text: string, name?: string): Promise<Uint8Array>;
export declare function generatedModuleText(bytes: Uint8Array): string;
