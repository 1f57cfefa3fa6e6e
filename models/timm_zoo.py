"""timm architectures with pretrained=False (random weights), the smallest variant
of each family, on small images (img_size lowered where the model allows)."""
from typing import Any, Callable, Dict, List, Tuple

import torch

from .spec import Built, ModelSpec, spec

# name -> (create_model kwargs, input side). Convnets take any size >= 32;
# models with position embeddings or windows get img_size to match.
MODELS: List[Tuple[str, Dict[str, Any], int]] = [
    # timm's own tiny test models
    ("test_vit", {}, 160), ("test_resnet", {}, 160), ("test_efficientnet", {}, 160), ("test_convnext", {}, 160),
    ("test_byobnet", {}, 160), ("test_nfnet", {}, 160), ("test_coatnet", {}, 160), ("test_maxvit", {}, 160),
    ("test_mambaout", {}, 160), ("test_vit_relpos", {}, 160),
    # residual networks
    ("resnet18", {}, 64), ("resnet50", {}, 64), ("resnext26ts", {}, 64), ("skresnet18", {}, 64),
    ("resnest14d", {}, 64), ("gcresnext26ts", {}, 64), ("dla34", {}, 64), ("densenet121", {}, 64),
    ("repvgg_a0", {}, 64), ("regnetx_002", {}, 64), ("regnety_002", {}, 64), ("gernet_s", {}, 64),
    ("ese_vovnet19b_dw", {}, 64), ("lambda_resnet26t", {"img_size": 64}, 64),
    # mobile / efficient
    ("mobilenetv2_050", {}, 64), ("mobilenetv3_small_050", {}, 64), ("mobilenetv3_large_075", {}, 64),
    ("mobilenetv4_conv_small", {}, 64), ("efficientnet_b0", {}, 64), ("efficientnetv2_rw_t", {}, 64),
    ("tinynet_e", {}, 64), ("mnasnet_050", {}, 64), ("ghostnetv2_100", {}, 64), ("lcnet_050", {}, 64),
    ("mobileone_s0", {}, 64), ("repghostnet_050", {}, 64), ("fastvit_t8", {}, 64), ("efficientvit_b0", {}, 64),
    ("edgenext_xx_small", {}, 64), ("starnet_s1", {}, 64), ("fasternet_t0", {}, 64), ("mobilevit_xxs", {}, 64),
    ("mobilevitv2_050", {}, 64), ("convnext_atto", {}, 64), ("convnextv2_atto", {}, 64),
    ("mambaout_femto", {}, 64), ("repvit_m1", {}, 64),
    # vision transformers and MLPs
    ("vit_tiny_patch16_224", {"img_size": 64}, 64), ("deit_tiny_patch16_224", {"img_size": 64}, 64),
    ("swin_tiny_patch4_window7_224", {"img_size": 112}, 112), ("pit_ti_224", {"img_size": 64}, 64),
    ("levit_128s", {"img_size": 64}, 64), ("coat_lite_tiny", {"img_size": 64}, 64), ("pvt_v2_b0", {}, 64),
    ("mixer_s32_224", {"img_size": 64}, 64), ("resmlp_12_224", {"img_size": 64}, 64),
    ("gmlp_ti16_224", {"img_size": 64}, 64), ("convit_tiny", {"img_size": 64}, 64),
    ("visformer_tiny", {"img_size": 64}, 64), ("poolformer_s12", {}, 64), ("poolformerv2_s12", {}, 64),
    ("hgnetv2_b0", {}, 64), ("efficientvit_m0", {"img_size": 64}, 64),
    ("eva02_tiny_patch14_224", {"img_size": 56}, 56),
]


def _timm(name: str, kw: Dict[str, Any], side: int) -> Callable[[], Built]:
    def build() -> Built:
        import timm

        model = timm.create_model(name, pretrained=False, num_classes=10, **kw)
        return model, (torch.randn(2, 3, side, side),), {}
    return build


def corpus() -> List[ModelSpec]:
    return [spec("timm", name, _timm(name, kw, side)) for name, kw, side in MODELS]
