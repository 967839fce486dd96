// A topology section written inline in a test, as a scenario file would hold it.
#pragma once

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

#include "proto/scenario.pb.h"

namespace fe::testing {

inline fabric_emu::Topology TopologyText(const std::string& text) {
  fabric_emu::Topology t;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &t)) << text;
  return t;
}

}  // namespace fe::testing
