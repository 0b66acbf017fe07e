# expect: AttributeError
try:
    1 / 0
except Exception as e:
    frame = e.__traceback__.tb_frame
