# expect: AttributeError
print((x for x in []).gi_code)
