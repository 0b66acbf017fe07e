# PyTorch tutorial "Language Modeling with nn.Transformer and torchtext": PositionalEncoding,
# TransformerEncoder over embeddings with a square subsequent mask, a decoder Linear, one SGD
# step with gradient clipping, then evaluation.
import math

import torch
from torch import nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.5):
        super().__init__()
        self.model_type = "Transformer"
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        if src_mask is None:
            src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        output = self.transformer_encoder(src, src_mask)
        output = self.linear(output)
        return output


torch.manual_seed(0)
ntokens, emsize, d_hid, nlayers, nhead, dropout = 20, 8, 16, 2, 2, 0.2
model = TransformerModel(ntokens, emsize, nhead, d_hid, nlayers, dropout)
print(model.transformer_encoder.layers[1])
print(sum(p.numel() for p in model.parameters()))
print(nn.Transformer.generate_square_subsequent_mask(4))

bptt, batch_size = 5, 3
data = torch.randint(0, ntokens, (bptt + 1, batch_size))
inputs, targets = data[:bptt], data[1 : bptt + 1].reshape(-1)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
model.train()
for step in range(2):
    output = model(inputs)
    output_flat = output.view(-1, ntokens)
    loss = criterion(output_flat, targets)
    optimizer.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    print(step, loss.item(), norm)
print(model.transformer_encoder.layers[0].self_attn.out_proj.weight[0])

model.eval()
with torch.no_grad():
    output = model(inputs)
    print(output.shape)
    print(criterion(output.view(-1, ntokens), targets))
    print(output[-1].argmax(-1))
