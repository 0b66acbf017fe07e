# expect: MemoryError
s = "x".ljust(10**11)
