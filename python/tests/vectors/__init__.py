"""Helpers of the shared-vector runner (`tests/test_vectors.py`): the Python twin of
`packages/protocol/test/helpers/vector-*.ts`. The format is in `test-vectors/README.md`."""
