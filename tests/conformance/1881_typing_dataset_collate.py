# A typed Dataset and collate_fn, as in PyTorch's "Datasets & DataLoaders" and text-classification
# tutorials: __getitem__ returning Tuple[Tensor, int], a collate function over List[...].
# ruff: noqa: UP006, UP007, UP035, UP045 - typing's spellings are the subject
from typing import Dict, List, Optional, Tuple

import torch
from torch import Tensor
from torch.utils.data import DataLoader, Dataset


class ToyText(Dataset):
    def __init__(self, texts: List[List[int]], labels: List[int]) -> None:
        self.texts = texts
        self.labels = labels

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, idx: int) -> Tuple[Tensor, int]:
        return torch.tensor(self.texts[idx]), self.labels[idx]


def collate(batch: List[Tuple[Tensor, int]], pad: int = 0) -> Dict[str, Tensor]:
    longest = max(len(t) for t, _ in batch)
    ids = torch.full((len(batch), longest), pad)
    for i, (t, _) in enumerate(batch):
        ids[i, : len(t)] = t
    return {"ids": ids, "labels": torch.tensor([label for _, label in batch])}


def accuracy(logits: Tensor, labels: Tensor, mask: Optional[Tensor] = None) -> float:
    right = (logits.argmax(1) == labels).float()
    if mask is not None:
        right = right[mask]
    return right.mean().item()


torch.manual_seed(0)
data = ToyText([[1, 2, 3], [4, 5], [6], [7, 8, 9, 1], [2, 2]], [0, 1, 0, 1, 1])
loader = DataLoader(data, batch_size=2, shuffle=True, collate_fn=collate)
emb = torch.nn.Embedding(10, 4, padding_idx=0)
head = torch.nn.Linear(4, 2)
opt = torch.optim.SGD([*emb.parameters(), *head.parameters()], lr=0.5)
for batch in loader:
    print(batch["ids"].tolist(), batch["labels"].tolist())
    ids = batch["ids"]
    lengths = (ids != 0).sum(1, keepdim=True)
    logits = head(emb(ids).sum(1) / lengths)
    loss = torch.nn.functional.cross_entropy(logits, batch["labels"])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(round(loss.item(), 4), accuracy(logits, batch["labels"]))
print(head.bias, accuracy.__annotations__, collate.__annotations__["batch"])
