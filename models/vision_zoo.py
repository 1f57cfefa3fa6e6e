"""Classic vision models from torchvision (weights=None: random init) plus the
TorchBench-style models written in this package."""
from typing import Any, Callable, List

import torch

from . import torchbench_style
from .spec import Built, ModelSpec, spec


def _img(size: int = 64, batch: int = 2) -> torch.Tensor:
    return torch.randn(batch, 3, size, size)


def _classifier(factory: str, size: int = 64, **kw: Any) -> Callable[[], Built]:
    def build() -> Built:
        import torchvision.models as tvm

        model = getattr(tvm, factory)(weights=None, num_classes=10, **kw)
        return model, (_img(size),), {}
    return build


def _segmentation(factory: str, **kw: Any) -> Callable[[], Built]:
    def build() -> Built:
        import torchvision.models.segmentation as seg

        model = getattr(seg, factory)(weights=None, weights_backbone=None, num_classes=3, **kw)
        return model, (_img(64),), {}
    return build


def _small_vit() -> Built:
    from torchvision.models import VisionTransformer

    model = VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=32,
                              mlp_dim=64, num_classes=10)
    return model, (_img(32),), {}


def _small_resnet() -> Built:
    from torchvision.models.resnet import BasicBlock, ResNet

    return ResNet(BasicBlock, [1, 1, 1, 1], num_classes=10), (_img(32),), {}


def _video(factory: str) -> Callable[[], Built]:
    def build() -> Built:
        import torchvision.models.video as video

        model = getattr(video, factory)(weights=None, num_classes=5)
        return model, (torch.randn(1, 3, 4, 32, 32),), {}
    return build


def corpus() -> List[ModelSpec]:
    tv = [
        spec("vision", "alexnet", _classifier("alexnet", 64)),
        spec("vision", "vgg11", _classifier("vgg11", 32)),
        spec("vision", "resnet18", _classifier("resnet18")),
        spec("vision", "resnet50", _classifier("resnet50")),
        spec("vision", "resnext50_32x4d", _classifier("resnext50_32x4d")),
        spec("vision", "resnet_tiny", _small_resnet),
        spec("vision", "densenet121", _classifier("densenet121")),
        spec("vision", "squeezenet1_0", _classifier("squeezenet1_0")),
        spec("vision", "squeezenet1_1", _classifier("squeezenet1_1")),
        spec("vision", "shufflenet_v2_x0_5", _classifier("shufflenet_v2_x0_5")),
        spec("vision", "mobilenet_v2", _classifier("mobilenet_v2", width_mult=0.5)),
        spec("vision", "mobilenet_v3_small", _classifier("mobilenet_v3_small")),
        spec("vision", "mobilenet_v3_large", _classifier("mobilenet_v3_large")),
        spec("vision", "mnasnet0_5", _classifier("mnasnet0_5")),
        spec("vision", "googlenet", _classifier("googlenet", 64, aux_logits=False, init_weights=True)),
        spec("vision", "inception_v3", _classifier("inception_v3", 80, aux_logits=False, init_weights=True)),
        spec("vision", "efficientnet_b0", _classifier("efficientnet_b0")),
        spec("vision", "regnet_x_400mf", _classifier("regnet_x_400mf")),
        spec("vision", "regnet_y_400mf", _classifier("regnet_y_400mf")),
        spec("vision", "convnext_tiny", _classifier("convnext_tiny", 32)),
        spec("vision", "swin_t", _classifier("swin_t", 32)),
        spec("vision", "vit_tiny", _small_vit),
        spec("vision", "fcn_resnet50", _segmentation("fcn_resnet50", aux_loss=False)),
        spec("vision", "lraspp_mobilenet_v3_large", _segmentation("lraspp_mobilenet_v3_large")),
        spec("vision", "r3d_18", _video("r3d_18")),
    ]
    return tv + torchbench_style.corpus()
