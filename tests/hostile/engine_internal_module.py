# expect: ImportError
from torch import creation
