// The source tree, where tests read shipped scenarios and data: ctest passes it in
// FABRIC_EMU_ROOT. Run outside ctest, a test that needs it fails and says why.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace fe {

inline std::string SourceRoot() {
  const char* root = std::getenv("FABRIC_EMU_ROOT");
  EXPECT_NE(root, nullptr) << "FABRIC_EMU_ROOT is not set: run the tests through ctest, which "
                              "sets it";
  return root == nullptr ? "." : root;
}

}  // namespace fe
