"""What compiled scripts run with: the sandboxed namespace and its builtins (`namespace`),
script functions and generator objects, the script's stack, and what a run
notes for the CLI (graph provenance, teaching facts, "Did you mean" hints)."""
