# Byte-level tokenization (Karpathy's minbpe style): text to bytes, bytes to ids, an embedding
# lookup and its gradient.
import torch

text = "hello é"
raw: bytes = text.encode("utf-8")
print(raw, len(raw), list(raw))
ids = torch.tensor(list(raw))
print(ids)
print(bytes(ids.tolist()).decode("utf-8"))
print(b"hel" + b"lo", b"hello".startswith(b"he"), raw[:5], raw[-2:].hex())
merged = b"".join([bytes([i]) for i in raw[:5]])
print(merged, merged == b"hello", merged.decode())
torch.manual_seed(0)
emb = torch.nn.Embedding(256, 3)
out = emb(ids)
out.sum().backward()
print(out.shape, out.grad_fn)
print(emb.weight.grad[104], emb.weight.grad[108], emb.weight.grad.sum())
print(rb"\n", b"\x00\xff", b"%d-%s" % (7, b"x"), bytes(3))
