# The PyTorch text-classification tutorial's model (AG_NEWS): an nn.EmbeddingBag over the
# concatenated token ids of a batch with offsets, then a Linear layer; init_weights as the
# tutorial, a few SGD steps (lr=5, clip_grad_norm_ 0.1, CrossEntropyLoss) on a toy batch; then
# the EmbeddingBag documentation's examples: modes, 2-D bags, per_sample_weights, padding_idx,
# include_last_offset, from_pretrained, reprs and errors
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


vocab_size, emsize, num_class = 12, 4, 3
model = TextClassificationModel(vocab_size, emsize, num_class)
print(model)
# three "sentences" as the tutorial's collate_batch makes them: concatenated ids and offsets
texts = [[1, 5, 7, 2], [3, 3, 9], [11, 0, 4, 6, 8]]
label = torch.tensor([0, 1, 2])
text = torch.cat([torch.tensor(t, dtype=torch.int64) for t in texts])
offsets = torch.tensor([0] + [len(t) for t in texts][:-1]).cumsum(dim=0)
print(text, offsets)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
for step in range(4):
    optimizer.zero_grad()
    predicted_label = model(text, offsets)
    loss = criterion(predicted_label, label)
    loss.backward()
    if step == 0:
        print(predicted_label.grad_fn.name(), model.embedding(text, offsets).grad_fn.name())
        print(model.embedding.weight.grad)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    optimizer.step()
    accuracy = (predicted_label.argmax(1) == label).sum().item() / label.size(0)
    print(step, round(loss.item(), 5), accuracy)
print(model.embedding.weight)

# the documentation's examples
embedding_sum = nn.EmbeddingBag(10, 3, mode="sum")
input = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9], dtype=torch.long)
offsets = torch.tensor([0, 4], dtype=torch.long)
print(embedding_sum, embedding_sum(input, offsets))
embedding_sum = nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2)
input = torch.tensor([2, 2, 2, 2, 4, 3, 2, 9], dtype=torch.long)
print(embedding_sum, embedding_sum(input, offsets))
weight = torch.FloatTensor([[1, 2.3, 3], [4, 5.1, 6.3]])
embeddingbag = nn.EmbeddingBag.from_pretrained(weight)
print(embeddingbag, embeddingbag.weight.requires_grad, embeddingbag(torch.LongTensor([[1, 0]])))

w = torch.randn(6, 2, dtype=torch.float64, requires_grad=True)
idx = torch.tensor([1, 2, 4, 5, 4, 3])
for mode in ("sum", "mean", "max"):
    bag = F.embedding_bag(idx, w, torch.tensor([0, 2, 2]), mode=mode)
    (grad,) = torch.autograd.grad(bag.pow(2).sum(), w)
    print(mode, bag, grad)
print(F.embedding_bag(idx.view(2, 3), w, mode="max"))
for mode in ("sum", "mean", "max"):
    print(F.embedding_bag(idx, w, torch.tensor([0, 2, 6]), mode=mode, include_last_offset=True))
print(
    F.embedding_bag(idx, w.float(), torch.tensor([0, 2, 5]), mode="sum", include_last_offset=True)
)
print(F.embedding_bag(idx, w, torch.tensor([0, 3]), mode="mean", padding_idx=4))
psw = torch.tensor([0.5, 1.0, 2.0, -1.0, 3.0, 0.25], dtype=torch.float64, requires_grad=True)
bag = F.embedding_bag(idx, w, torch.tensor([0, 3]), mode="sum", per_sample_weights=psw)
print(bag, [f is None for f, _ in bag.grad_fn.next_functions])
print(torch.autograd.grad(bag.sum(), (w, psw)))
print(nn.EmbeddingBag(10, 3, mode="max", padding_idx=-1), nn.EmbeddingBag(5, 2, norm_type=1.0))
for bad in [
    lambda: F.embedding_bag(idx, w),
    lambda: F.embedding_bag(idx.view(2, 3), w, torch.tensor([0, 1])),
    lambda: F.embedding_bag(idx, w, torch.tensor([0, 2]), mode="mean", per_sample_weights=psw),
    lambda: F.embedding_bag(idx, w, torch.tensor([0, 2]), mode="median"),
    lambda: F.embedding_bag(idx.float(), w, torch.tensor([0, 2])),
    lambda: F.embedding_bag(idx, w, torch.tensor([0, 7])),
    lambda: F.embedding_bag(torch.tensor([1, 9]), w, torch.tensor([0])),
    lambda: F.embedding_bag(torch.tensor([1, 9]), w.float(), torch.tensor([0])),
    lambda: F.embedding_bag(torch.tensor([1, -1]), w, torch.tensor([0]), mode="max"),
    lambda: F.embedding_bag(idx, w, torch.tensor([0]), padding_idx=9),
    lambda: nn.EmbeddingBag(10, 3, padding_idx=11),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
