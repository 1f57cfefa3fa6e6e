"""Small models written here in the style of TorchBench's own (DCGAN, UNet, a
recommender, an LSTM language model, ...): tiny sizes, random weights."""
from typing import Any, List

import torch
from torch import nn
import torch.nn.functional as F

from .spec import Built, ModelSpec, spec


class DCGANGenerator(nn.Module):
    def __init__(self, nz: int = 16, ngf: int = 8, nc: int = 3) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return self.net(z)


class DCGANDiscriminator(nn.Module):
    def __init__(self, ndf: int = 8, nc: int = 3) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 4), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 4, 1, 4, 1, 0, bias=False), nn.Sigmoid())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x).view(-1)


class DCGAN(nn.Module):
    """Generator and discriminator in one forward, as a GAN step sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.g, self.d = DCGANGenerator(), DCGANDiscriminator()

    def forward(self, z: torch.Tensor, real: torch.Tensor) -> torch.Tensor:
        fake = self.g(z)
        return torch.cat([self.d(fake), self.d(real)])


class DoubleConv(nn.Sequential):
    def __init__(self, cin: int, cout: int) -> None:
        super().__init__(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class UNet(nn.Module):
    def __init__(self, cin: int = 3, classes: int = 2, w: int = 8) -> None:
        super().__init__()
        self.inc = DoubleConv(cin, w)
        self.down1, self.down2 = DoubleConv(w, w * 2), DoubleConv(w * 2, w * 4)
        self.up1 = nn.ConvTranspose2d(w * 4, w * 2, 2, stride=2)
        self.conv1 = DoubleConv(w * 4, w * 2)
        self.up2 = nn.ConvTranspose2d(w * 2, w, 2, stride=2)
        self.conv2 = DoubleConv(w * 2, w)
        self.outc = nn.Conv2d(w, classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x1 = self.inc(x)
        x2 = self.down1(F.max_pool2d(x1, 2))
        x3 = self.down2(F.max_pool2d(x2, 2))
        y = self.conv1(torch.cat([x2, self.up1(x3)], dim=1))
        y = self.conv2(torch.cat([x1, self.up2(y)], dim=1))
        return self.outc(y)


class DLRM(nn.Module):
    """A recommender: embedding bags for sparse features, MLPs, pairwise interactions."""

    def __init__(self, tables: int = 3, rows: int = 50, dim: int = 8, dense: int = 4) -> None:
        super().__init__()
        self.emb = nn.ModuleList(nn.EmbeddingBag(rows, dim, mode="sum") for _ in range(tables))
        self.bottom = nn.Sequential(nn.Linear(dense, 16), nn.ReLU(), nn.Linear(16, dim), nn.ReLU())
        n = tables + 1
        self.top = nn.Sequential(nn.Linear(dim + n * (n - 1) // 2, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, dense: torch.Tensor, idx: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
        x = self.bottom(dense)
        feats = [x] + [e(idx[i], offsets[i]) for i, e in enumerate(self.emb)]
        t = torch.stack(feats, dim=1)
        z = torch.bmm(t, t.transpose(1, 2))
        li, lj = torch.tril_indices(t.shape[1], t.shape[1], offset=-1)
        return torch.sigmoid(self.top(torch.cat([x, z[:, li, lj]], dim=1)))


class NCF(nn.Module):
    """Neural collaborative filtering: GMF and MLP towers over user/item embeddings."""

    def __init__(self, users: int = 40, items: int = 60, dim: int = 8) -> None:
        super().__init__()
        self.u_gmf, self.i_gmf = nn.Embedding(users, dim), nn.Embedding(items, dim)
        self.u_mlp, self.i_mlp = nn.Embedding(users, dim), nn.Embedding(items, dim)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 16), nn.ReLU(), nn.Linear(16, dim), nn.ReLU())
        self.out = nn.Linear(2 * dim, 1)

    def forward(self, u: torch.Tensor, i: torch.Tensor) -> torch.Tensor:
        gmf = self.u_gmf(u) * self.i_gmf(i)
        mlp = self.mlp(torch.cat([self.u_mlp(u), self.i_mlp(i)], dim=-1))
        return self.out(torch.cat([gmf, mlp], dim=-1)).squeeze(-1)


class LSTMLM(nn.Module):
    def __init__(self, vocab: int = 100, dim: int = 32, layers: int = 2) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, layers, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h, _ = self.rnn(self.emb(tokens))
        return F.log_softmax(self.head(h), dim=-1)


class GRUSeq2Seq(nn.Module):
    """An encoder-decoder GRU with dot-product attention, teacher forcing."""

    def __init__(self, vocab: int = 80, dim: int = 32) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.dec = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(2 * dim, vocab)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        mem, h = self.enc(self.emb(src))
        d, _ = self.dec(self.emb(tgt), h)
        att = torch.softmax(d @ mem.transpose(1, 2), dim=-1) @ mem
        return self.out(torch.cat([d, att], dim=-1))


class TinyTransformerLM(nn.Module):
    def __init__(self, vocab: int = 100, dim: int = 32, heads: int = 4, layers: int = 2) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, 64, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, 64, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        n = tokens.shape[1]
        mask = nn.Transformer.generate_square_subsequent_mask(n)
        return self.head(self.enc(self.emb(tokens) + self.pos[:, :n], mask=mask, is_causal=True))


class VAE(nn.Module):
    def __init__(self, dim: int = 64, latent: int = 8) -> None:
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(dim, 32), nn.ReLU())
        self.mu, self.logvar = nn.Linear(32, latent), nn.Linear(32, latent)
        self.dec = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, dim), nn.Sigmoid())

    def forward(self, x: torch.Tensor, eps: torch.Tensor) -> Any:
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + eps * torch.exp(0.5 * logvar)
        recon = self.dec(z)
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        return recon, kld


class SuperResolution(nn.Module):
    """ESPCN-style: convolutions then a pixel shuffle."""

    def __init__(self, scale: int = 2) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.Tanh(), nn.Conv2d(16, 8, 3, padding=1),
                                  nn.Tanh(), nn.Conv2d(8, scale * scale, 3, padding=1))
        self.shuffle = nn.PixelShuffle(scale)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.shuffle(self.body(x))


class PointNet(nn.Module):
    def __init__(self, classes: int = 5) -> None:
        super().__init__()
        self.feat = nn.Sequential(nn.Conv1d(3, 16, 1), nn.BatchNorm1d(16), nn.ReLU(),
                                  nn.Conv1d(16, 32, 1), nn.BatchNorm1d(32), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, classes))

    def forward(self, pts: torch.Tensor) -> torch.Tensor:
        return self.head(torch.max(self.feat(pts), dim=2).values)


def _dcgan() -> Built:
    return DCGAN(), (torch.randn(2, 16, 1, 1), torch.randn(2, 3, 32, 32)), {}


def _unet() -> Built:
    return UNet(), (torch.randn(2, 3, 32, 32),), {}


def _dlrm() -> Built:
    idx = torch.randint(0, 50, (3, 8))
    offsets = torch.tensor([[0, 2, 5, 6]] * 3)
    return DLRM(), (torch.randn(4, 4), idx, offsets), {}


def _ncf() -> Built:
    return NCF(), (torch.randint(0, 40, (16,)), torch.randint(0, 60, (16,))), {}


def _lstm() -> Built:
    return LSTMLM(), (torch.randint(0, 100, (2, 12)),), {}


def _gru() -> Built:
    return GRUSeq2Seq(), (torch.randint(0, 80, (2, 10)), torch.randint(0, 80, (2, 7))), {}


def _tlm() -> Built:
    return TinyTransformerLM(), (torch.randint(0, 100, (2, 16)),), {}


def _vae() -> Built:
    return VAE(), (torch.rand(4, 64), torch.randn(4, 8)), {}


def _sr() -> Built:
    return SuperResolution(), (torch.randn(2, 1, 16, 16),), {}


def _pointnet() -> Built:
    return PointNet(), (torch.randn(4, 3, 64),), {}


def corpus() -> List[ModelSpec]:
    return [spec("vision", "dcgan", _dcgan), spec("vision", "unet", _unet),
            spec("vision", "dlrm", _dlrm), spec("vision", "ncf", _ncf),
            spec("vision", "lstm_lm", _lstm), spec("vision", "gru_seq2seq", _gru),
            spec("vision", "transformer_lm", _tlm), spec("vision", "vae", _vae),
            spec("vision", "super_resolution", _sr), spec("vision", "pointnet", _pointnet)]
