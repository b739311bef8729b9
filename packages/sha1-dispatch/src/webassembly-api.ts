// The slice of the WebAssembly JS API this package uses. The base tsconfig has
// no DOM lib and @types/node does not declare WebAssembly, so the global is
// read through this typed view; it is undefined where a runtime lacks it.
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  validate(bytes: Uint8Array): boolean;
}

export const webAssembly: WasmApi | undefined = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
