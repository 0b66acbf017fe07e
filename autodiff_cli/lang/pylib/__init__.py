"""The Python libraries a script may import, written over safe wrappers: the numpy subset
(`numpy_*`) and the standard-library modules (`modules/`)."""
