// The Mooncake trace sample shipped in traffic/data/, for the KV-cache tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "source_root.h"

namespace fe {

inline std::string MooncakeSamplePath() {
  return SourceRoot() + "/traffic/data/mooncake_conversation_200.jsonl";
}

}  // namespace fe
