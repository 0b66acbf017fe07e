# expect: MemoryError
print("{:>10000000000}".format(1))
