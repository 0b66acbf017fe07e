# expect: MemoryError
print(f"{1:>10000000000}")
