"""The language's security layer (SECURITY.md, layer 1): what a script may reach. `capabilities`
is the one attribute checker; beside it the allow-lists of builtin types, what `type()` shows,
class-body checks, the results of calls, the engine's exported names, reflection (`getattr`,
`eval`, `__code__`), `dir`/`help`, and why a withheld name is withheld."""
