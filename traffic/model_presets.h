// How many bytes of KV cache a token of a transformer model takes: every layer keeps a key and a
// value vector per KV head, so  bytes per token = layers x 2 x KV heads x head dim x bytes per
// element. Presets give the shapes of a few open models from their published config.json
// (sources in model_presets.cc and docs/workloads.md).
#pragma once

#include <cstdint>

namespace fe {

struct KvModelShape {
  uint32_t layers = 0;             // num_hidden_layers
  uint32_t kv_heads = 0;           // num_key_value_heads (grouped-query attention)
  uint32_t head_dim = 0;           // head_dim, or hidden_size / num_attention_heads
  uint32_t bytes_per_element = 2;  // 2: bf16/fp16 KV cache; 1: fp8

  // The KV bytes of one token in one layer: 2 x kv_heads x head_dim x bytes_per_element.
  uint64_t LayerBytesPerToken() const {
    return uint64_t{2} * kv_heads * head_dim * bytes_per_element;
  }
  uint64_t BytesPerToken() const { return uint64_t{layers} * LayerBytesPerToken(); }
};

enum class KvModelPreset : uint8_t {
  kLlama31_8B,
  kLlama31_70B,
  kQwen25_7B,
  kMistral7B,
  kLlama32_1B,
};

// The preset's shape with a bf16 KV cache (2 bytes per element).
KvModelShape PresetShape(KvModelPreset preset);

}  // namespace fe
