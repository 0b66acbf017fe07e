# expect: MemoryError
s = list(range(10**12))
