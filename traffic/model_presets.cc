#include "traffic/model_presets.h"

namespace fe {

// Each shape is read from the model's config.json on Hugging Face; where it names no head_dim,
// head dim = hidden_size / num_attention_heads.
KvModelShape PresetShape(KvModelPreset preset) {
  switch (preset) {
    case KvModelPreset::kLlama31_8B:
      // huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json: num_hidden_layers 32,
      // num_key_value_heads 8, hidden_size 4096 / num_attention_heads 32 (head_dim 128).
      return {.layers = 32, .kv_heads = 8, .head_dim = 128};
    case KvModelPreset::kLlama31_70B:
      // huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json: num_hidden_layers 80,
      // num_key_value_heads 8, hidden_size 8192 / num_attention_heads 64.
      return {.layers = 80, .kv_heads = 8, .head_dim = 128};
    case KvModelPreset::kQwen25_7B:
      // huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json: num_hidden_layers 28,
      // num_key_value_heads 4, hidden_size 3584 / num_attention_heads 28.
      return {.layers = 28, .kv_heads = 4, .head_dim = 128};
    case KvModelPreset::kMistral7B:
      // huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json: num_hidden_layers 32,
      // num_key_value_heads 8, hidden_size 4096 / num_attention_heads 32.
      return {.layers = 32, .kv_heads = 8, .head_dim = 128};
    case KvModelPreset::kLlama32_1B:
      // huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json: num_hidden_layers 16,
      // num_key_value_heads 8, head_dim 64 (hidden_size 2048 / num_attention_heads 32).
      return {.layers = 16, .kv_heads = 8, .head_dim = 64};
  }
  return {};
}

}  // namespace fe
