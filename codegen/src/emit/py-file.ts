// A generated Python file: GeneratedFile in Python mode (blank lines kept as printed).
import { GeneratedFile } from '../printer/generated-file.js';

export class PyFile extends GeneratedFile {
  constructor(path: string, emitter: string) {
    super(path, emitter, 'py');
  }
}
