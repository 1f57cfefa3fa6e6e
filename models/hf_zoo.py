"""HuggingFace transformers architectures from tiny configs (random weights):
encoders, decoders, encoder-decoders, vision, speech and multimodal models."""
from typing import Any, Callable, Dict, List

import torch

from .spec import Built, ModelSpec, spec

VOCAB = 128
SEQ = 16

# Sizes most configs understand; each entry adds or renames what its config needs.
BERTISH: Dict[str, Any] = dict(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                               intermediate_size=64, max_position_embeddings=64)
DECODER: Dict[str, Any] = dict(BERTISH, use_cache=False, num_key_value_heads=2)
SEQ2SEQ: Dict[str, Any] = dict(vocab_size=VOCAB, d_model=32, encoder_layers=2, decoder_layers=2,
                               encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
                               decoder_ffn_dim=64, max_position_embeddings=64, use_cache=False,
                               pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=0)
T5ISH: Dict[str, Any] = dict(vocab_size=VOCAB, d_model=32, d_kv=16, d_ff=64, num_layers=2, num_decoder_layers=2,
                             num_heads=2, use_cache=False, decoder_start_token_id=0, pad_token_id=0)
VISION: Dict[str, Any] = dict(image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=2,
                              num_attention_heads=2, intermediate_size=64)


def _ids(n: int = SEQ, batch: int = 2) -> torch.Tensor:
    return torch.randint(3, VOCAB, (batch, n))


def _no_dropout(cfg: Any) -> None:
    """Zero every dropout probability so eager and compiled runs can match bitwise."""
    for key, value in cfg.to_dict().items():
        if ("dropout" in key or key.endswith("_pdrop") or key == "layerdrop") and isinstance(value, float):
            setattr(cfg, key, 0.0)
    for sub in ("text_config", "vision_config", "encoder", "decoder"):
        inner = getattr(cfg, sub, None)
        if inner is not None and hasattr(inner, "to_dict"):
            _no_dropout(inner)


def _hf(model_type: str, auto: str, cfg: Dict[str, Any], inputs: Callable[[], Dict[str, Any]]) -> Callable[[], Built]:
    def build() -> Built:
        import transformers

        config = transformers.AutoConfig.for_model(model_type, **cfg)
        _no_dropout(config)
        model = getattr(transformers, auto).from_config(config)
        return model, (), inputs()
    return build


def text() -> Dict[str, Any]:
    return {"input_ids": _ids()}


def seq2seq() -> Dict[str, Any]:
    return {"input_ids": _ids(), "decoder_input_ids": _ids(8)}


def pixels(size: int = 32) -> Callable[[], Dict[str, Any]]:
    return lambda: {"pixel_values": torch.randn(2, 3, size, size)}


def _clip_inputs() -> Dict[str, Any]:
    return {"input_ids": _ids(), "pixel_values": torch.randn(2, 3, 32, 32)}


def _whisper_inputs() -> Dict[str, Any]:
    return {"input_features": torch.randn(1, 16, 32), "decoder_input_ids": _ids(6, 1)}


def _audio_inputs() -> Dict[str, Any]:
    return {"input_values": torch.randn(1, 800)}


def _layoutlm_inputs() -> Dict[str, Any]:
    return {"input_ids": _ids(), "bbox": torch.zeros(2, SEQ, 4, dtype=torch.long)}


CONV_AUDIO: Dict[str, Any] = dict(BERTISH, conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3),
                                  num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=2,
                                  num_feat_extract_layers=2, do_stable_layer_norm=False,
                                  mask_time_prob=0.0, feat_extract_norm="group")
CLIPISH: Dict[str, Any] = dict(text_config=dict(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
                                                num_attention_heads=2, intermediate_size=64,
                                                max_position_embeddings=64),
                               vision_config=dict(VISION), projection_dim=16)


def corpus() -> List[ModelSpec]:
    mlm, clm, s2s, base = "AutoModelForMaskedLM", "AutoModelForCausalLM", "AutoModelForSeq2SeqLM", "AutoModel"
    dec = DECODER
    rows = [
        # encoders
        ("bert", mlm, BERTISH, text),
        ("roberta", mlm, dict(BERTISH, pad_token_id=1), text),
        ("albert", mlm, dict(BERTISH, embedding_size=16), text),
        ("distilbert", mlm, dict(vocab_size=VOCAB, dim=32, n_layers=2, n_heads=2, hidden_dim=64,
                                 max_position_embeddings=64), text),
        ("electra", mlm, dict(BERTISH, embedding_size=16), text),
        ("deberta", mlm, BERTISH, text),
        ("deberta-v2", mlm, BERTISH, text),
        ("mpnet", mlm, BERTISH, text),
        ("convbert", mlm, dict(BERTISH, embedding_size=32), text),
        ("squeezebert", mlm, dict(BERTISH, embedding_size=32, q_groups=2, k_groups=2, v_groups=2,
                                  post_attention_groups=2, intermediate_groups=2, output_groups=2), text),
        ("roformer", mlm, dict(BERTISH, embedding_size=32), text),
        ("fnet", mlm, BERTISH, text),
        ("modernbert", mlm, dict(BERTISH, global_attn_every_n_layers=2, local_attention=16, pad_token_id=0,
                                 bos_token_id=1, eos_token_id=2, cls_token_id=1, sep_token_id=2), text),
        ("mobilebert", mlm, dict(BERTISH, embedding_size=16, intra_bottleneck_size=16, true_hidden_size=16,
                                 num_feedforward_networks=1), text),
        # decoders
        ("gpt2", clm, dict(vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=2, n_positions=64, use_cache=False), text),
        ("gptj", clm, dict(vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=2, n_positions=64, rotary_dim=8,
                           use_cache=False), text),
        ("gpt_neo", clm, dict(vocab_size=VOCAB, hidden_size=32, num_layers=2, num_heads=2,
                              attention_types=[[["global", "local"], 1]], window_size=8,
                              max_position_embeddings=64, use_cache=False), text),
        ("gpt_neox", clm, dec, text),
        ("llama", clm, dec, text),
        ("mistral", clm, dict(dec, num_key_value_heads=1, sliding_window=8), text),
        ("mixtral", clm, dict(dec, num_local_experts=4, num_experts_per_tok=2), text),
        ("qwen2", clm, dec, text),
        ("phi", clm, dec, text),
        ("gemma", clm, dict(dec, head_dim=16), text),
        ("gemma2", clm, dict(dec, head_dim=16, sliding_window=8), text),
        ("opt", clm, dict(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                          ffn_dim=64, word_embed_proj_dim=32, max_position_embeddings=64, use_cache=False), text),
        ("bloom", clm, dict(vocab_size=VOCAB, hidden_size=32, n_layer=2, n_head=2, use_cache=False), text),
        ("falcon", clm, dict(dec, new_decoder_architecture=False), text),
        ("codegen", clm, dict(vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=64, rotary_dim=8,
                              use_cache=False), text),
        ("stablelm", clm, dec, text),
        # encoder-decoders
        ("t5", s2s, T5ISH, seq2seq),
        ("bart", s2s, SEQ2SEQ, seq2seq),
        ("pegasus", s2s, SEQ2SEQ, seq2seq),
        ("marian", s2s, dict(SEQ2SEQ, pad_token_id=1, decoder_vocab_size=VOCAB), seq2seq),
        ("blenderbot-small", s2s, SEQ2SEQ, seq2seq),
        ("whisper", "AutoModelForSpeechSeq2Seq",
         dict(SEQ2SEQ, num_mel_bins=16, max_source_positions=16, max_target_positions=32), _whisper_inputs),
        # vision
        ("vit", base, VISION, pixels()),
        ("deit", base, VISION, pixels()),
        ("beit", base, dict(VISION, use_mask_token=False), pixels()),
        ("swin", base, dict(image_size=32, patch_size=4, embed_dim=16, depths=[1, 1], num_heads=[1, 2],
                            window_size=4), pixels()),
        ("convnext", base, dict(hidden_sizes=[8, 16], depths=[1, 1], num_stages=2), pixels()),
        ("resnet", base, dict(embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1]), pixels()),
        ("segformer", base, dict(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[8, 16],
                                 num_attention_heads=[1, 2], patch_sizes=[7, 3], strides=[4, 2],
                                 mlp_ratios=[2, 2]), pixels()),
        ("clip", base, CLIPISH, _clip_inputs),
        ("siglip", base, CLIPISH, _clip_inputs),
        # speech
        ("wav2vec2", base, CONV_AUDIO, _audio_inputs),
    ]
    return [spec("hf", name, _hf(name, auto, cfg, inputs)) for name, auto, cfg, inputs in rows]
