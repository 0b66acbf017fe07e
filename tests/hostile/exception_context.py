# expect: AttributeError
try:
    try:
        1 / 0
    except Exception:
        raise ValueError("x")
except ValueError as e:
    print(e.__context__.__traceback__)
