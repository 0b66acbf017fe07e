# expect: MemoryError
print("%10000000000d" % 1)
