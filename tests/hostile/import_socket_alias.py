# expect: ModuleNotFoundError
import socket as s
