// Link classes: the scenario's named kinds of cable, checked and turned into the graph's. A
// class's delay is given directly or as a cable length; its power per bit defaults by media
// (docs/topology.md lists the figures and where they come from).
#pragma once

#include <cstdint>
#include <string>

#include <google/protobuf/repeated_ptr_field.h>

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::topo {

// One co-packaged optical engine commonly drives 8 ports (e.g. 8 x 100G lanes of an 800G
// engine, or 8 x 400G on 3.2T engines); the scenario can say otherwise per class.
inline constexpr uint32_t kDefaultPortsPerEngine = 8;

// Power of one link end in pJ/bit when the class gives none.
double DefaultPjPerBit(Media media);

// "DAC", "AOC", "PLUGGABLE", "LPO", "CPO": the scenario's spelling.
const char* MediaName(Media media);

// One class, checked; errors name fields under `path` (e.g. "link_class[2]").
StatusOr<LinkClass> ToLinkClass(const fabric_emu::LinkClass& proto, const std::string& path);

// Adds every class to the graph in the scenario's order, so that a class's LinkClassId is its
// index in Topology.link_class; names must be unique.
Status AddLinkClasses(const google::protobuf::RepeatedPtrField<fabric_emu::LinkClass>& classes,
                      Graph& graph);

// The graph's class called `name`, named by the builder field at `path`; an empty name is a
// missing field.
StatusOr<LinkClassId> FindLinkClass(const Graph& graph, const std::string& name,
                                    const std::string& path);

}  // namespace fe::topo
