"""The layout of a script frame (a list, one per call of a script function, module or class
body): the compiler numbers each scope's variables after these slots (`compile/scopes.py`), the
runtime fills them when it calls a function (`functions.make_function`)."""

# The global namespace, the return value, then the variables.
GLOBALS_SLOT, RETURN_SLOT, FIRST_VARIABLE_SLOT = 0, 1, 2
