// The Mooncake trace sample shipped in traffic/data/, for the KV-cache tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace fe {

inline std::string MooncakeSamplePath() {
  const char* root = std::getenv("FABRIC_EMU_ROOT");
  EXPECT_NE(root, nullptr) << "FABRIC_EMU_ROOT must point at the source tree (ctest sets it)";
  return std::string(root == nullptr ? "." : root) +
         "/traffic/data/mooncake_conversation_200.jsonl";
}

}  // namespace fe
