# expect: AttributeError
class M:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        print(tb.tb_frame.f_globals)


with M():
    1 / 0
