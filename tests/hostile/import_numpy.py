# expect: ModuleNotFoundError
import numpy
