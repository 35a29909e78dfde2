/**
 * Types for the `espeak-ng` package (the espeak-ng command line compiled to WASM with Emscripten,
 * MODULARIZE + EXPORT_ES6). Only what the local plugin uses is declared.
 */
declare module 'espeak-ng' {
  export interface EmscriptenFileSystem {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
  }

  export interface ESpeakModule {
    FS: EmscriptenFileSystem;
  }

  export interface ESpeakOptions {
    /** Command-line arguments of `espeak-ng`; main() runs before the returned promise settles. */
    arguments: string[];
    print?: (text: string) => void;
    printErr?: (text: string) => void;
    /** Called on exit(); the default sets `process.exitCode`, which a server must not allow. */
    quit?: (status: number, toThrow: unknown) => void;
    preRun?: Array<(module: ESpeakModule) => void>;
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      receiveInstance: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ) => WebAssembly.Exports;
  }

  export default function ESpeakNg(options: ESpeakOptions): Promise<ESpeakModule>;
}
