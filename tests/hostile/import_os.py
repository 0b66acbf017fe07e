# expect: ModuleNotFoundError
import os

os.system("touch pwned.txt")
