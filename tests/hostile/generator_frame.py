# expect: AttributeError
print((x for x in [1]).gi_frame.f_back)
