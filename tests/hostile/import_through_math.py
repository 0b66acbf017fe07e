# expect: ModuleNotFoundError
import math.os
