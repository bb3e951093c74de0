"""The repository's demo: `python -m dsh_sdk.demo [--runtime py|ts] [--chunk-delay-ms N]`.

The twin of `packages/client/src/demo.ts`: start a reference runtime, run a prompt with an image and
a delegation while the replies stream, summarize what crossed the wire, and stop the runtime with
the bounded ladder.
"""
