// Builds a topology section written as text, as a scenario would hold it.
#pragma once

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

#include "topology/build.h"

namespace fe::topo {

inline StatusOr<Graph> BuildText(const std::string& text, const std::string& dir = ".") {
  fabric_emu::Topology t;
  if (!google::protobuf::TextFormat::ParseFromString(text, &t)) {
    return Status::Error("test text does not parse");
  }
  return BuildTopology(t, dir);
}

// The error of a refused topology; fails the test if it was built.
inline std::string ErrorOf(const std::string& text, const std::string& dir = ".") {
  StatusOr<Graph> g = BuildText(text, dir);
  EXPECT_FALSE(g.ok()) << text;
  return g.ok() ? "" : g.status().message();
}

}  // namespace fe::topo
