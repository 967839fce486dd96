// A topology section written inline in a test, as a scenario file would hold it, and the
// fabric most failure tests start from.
#pragma once

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "proto/scenario.pb.h"
#include "topology/fat_tree.h"

namespace fe::testing {

inline fabric_emu::Topology TopologyText(const std::string& text) {
  fabric_emu::Topology t;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &t)) << text;
  return t;
}

// The k = 4 fat-tree of 100 Gb/s, 1 us links (16 hosts, 20 switches).
inline topo::Graph FatTree4() {
  auto g = topo::BuildFatTree(topo::FatTreeParams{4, Rate::FromGbps(100), Time::FromNs(1000)});
  EXPECT_TRUE(g.ok());
  return std::move(g).value();
}

}  // namespace fe::testing
