import torch
import torch.nn as nn

# ViT-style init: truncated normals with a small std, orthogonal recurrent weights.
torch.manual_seed(0)
pos_embed = torch.zeros(1, 5, 8)
nn.init.trunc_normal_(pos_embed, std=0.02)
print(pos_embed[0, :2])

w = torch.empty(4, 6)
print(nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=-0.5, b=0.5))
print(nn.init.trunc_normal_(torch.empty(20, dtype=torch.float64), 0.1, 0.5, -0.6, 0.9))

q = nn.init.orthogonal_(torch.empty(3, 5))
print(q)
print(torch.allclose(q @ q.t(), torch.eye(3), atol=1e-6))
tall = nn.init.orthogonal_(torch.empty(6, 4), gain=nn.init.calculate_gain("relu"))
print(tall)
print(torch.allclose(tall.t() @ tall, 2 * torch.eye(4), atol=1e-5))


def init_vit(m):
    if isinstance(m, nn.Linear):
        nn.init.trunc_normal_(m.weight, std=0.02)
        if m.bias is not None:
            nn.init.zeros_(m.bias)


torch.manual_seed(3)
block = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))
block.apply(init_vit)
print(block[0].weight[:2, :4], block[2].bias[:3])
print(block(torch.ones(2, 8)))
