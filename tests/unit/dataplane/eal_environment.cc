// DPDK's EAL can start once per process: one GoogleTest environment starts it for every test.
#include <gtest/gtest.h>

#include "dataplane/eal.h"

namespace {

class EalEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    fe::dp::EalOptions options;
    options.memory_mb = 256;
    const fe::Status s = fe::dp::InitEal(options);
    ASSERT_TRUE(s.ok()) << s.message();
  }
};

const ::testing::Environment* const kEal = ::testing::AddGlobalTestEnvironment(new EalEnvironment);

}  // namespace
