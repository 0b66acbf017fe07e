# expect: AttributeError
import math

print(math.__loader__)
