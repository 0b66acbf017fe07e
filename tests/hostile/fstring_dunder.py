# expect: AttributeError
print(f"{(1).__class__}")
