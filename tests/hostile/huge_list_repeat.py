# expect: MemoryError
s = [0] * 10**10
