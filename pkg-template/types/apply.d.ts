export interface FileHost {
  readFile(path: string): string | Uint8Array | null | undefined | Promise<string | Uint8Array | null | undefined>;
  writeFile(path: string, content: string): void | Promise<void>;
  deleteFile?(path: string): void | Promise<void>;
  stage?(paths: string[]): void | Promise<void>;
}
