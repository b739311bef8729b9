#!/usr/bin/env node
// The `layerbench-report` bin: the program around report-cli's main(), which tests call in-process.
import { main } from './report-cli.js';

process.exitCode = main(process.argv.slice(2));
