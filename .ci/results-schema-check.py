#!/usr/bin/env python3
"""Validates results.json files against the kit's published JSON Schema (src/main/resources/dev/bottleneckkit/
results.schema.json), as a pipeline reading them would: the schema says what the file holds, a real run proves it.
Usage: results-schema-check.py RESULTS.json..."""
import json
import pathlib
import sys

import jsonschema

schema_path = pathlib.Path(__file__).resolve().parent.parent / "src/main/resources/dev/bottleneckkit/results.schema.json"
schema = json.loads(schema_path.read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failed = False
for name in sys.argv[1:]:
    results = json.loads(pathlib.Path(name).read_text())
    errors = sorted(validator.iter_errors(results), key=lambda e: list(e.absolute_path))
    kinds = {}
    for run in results.get("runs", []):
        kinds[run.get("kind")] = kinds.get(run.get("kind"), 0) + 1
    if errors:
        failed = True
        print(f"[schema] {name}: {len(errors)} error(s) against {schema_path.name}")
        for error in errors[:10]:
            print(f"[schema]   at /{'/'.join(str(p) for p in error.absolute_path)}: {error.message[:200]}")
    else:
        print(f"[schema] {name}: valid ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})")
sys.exit(1 if failed else 0)
