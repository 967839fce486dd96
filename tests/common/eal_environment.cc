// DPDK's EAL can start once per process: one GoogleTest environment starts it for every test.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "dataplane/eal.h"

namespace {

class EalEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    fe::dp::EalOptions options;
    options.memory_mb = 256;
    options.quick_tsc_estimate = true;  // tests run in virtual time
    options.keep_thread_affinity = true;
    const fe::Status s = fe::dp::InitEal(options);
    // GoogleTest would report the tests as skipped, and a run that tested nothing as green.
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.message().c_str());
      std::exit(1);
    }
  }
};

const ::testing::Environment* const kEal = ::testing::AddGlobalTestEnvironment(new EalEnvironment);

}  // namespace
