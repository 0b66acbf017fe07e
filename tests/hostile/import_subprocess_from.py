# expect: ModuleNotFoundError
from subprocess import run
