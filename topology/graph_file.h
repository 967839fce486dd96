// An explicit graph kept in a file beside the scenario: an ExplicitGraph in Protobuf text format.
#pragma once

#include <string>

#include <google/protobuf/text_format.h>

#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::topo {

struct GraphFile {
  std::string name;  // as the scenario wrote it
  fabric_emu::ExplicitGraph graph;
  google::protobuf::TextFormat::ParseInfoTree locations;  // where each node and link is
};

// Reads `file` (relative names start at scenario_dir), refusing files over kMaxGraphFileBytes
// before reading them and text that does not parse. Errors name "graph.file".
Status ReadGraphFile(const std::string& file, const std::string& scenario_dir, GraphFile& out);

}  // namespace fe::topo
