# expect: OverflowError
import math

x = math.factorial(10**8)
