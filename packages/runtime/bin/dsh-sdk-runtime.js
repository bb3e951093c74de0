#!/usr/bin/env node
// The package's `dsh-sdk-runtime` command. A committed file (not dist/main.js itself), so package
// managers can link the command before the package is built.
import '../dist/main.js';
