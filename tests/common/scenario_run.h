// A scenario written inline in a test, loaded as a file of that name would be and run in software
// mode with a seed: what the scenario tests start from.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"

namespace fe::testing {

// The scenario as loaded (a test that fails to load it fails) and its run.
struct ScenarioRun {
  fabric_emu::Scenario scenario;
  control::SoftwareRunResult run;
};

inline ScenarioRun RunScenarioText(const std::string& text, const std::string& file_name,
                                   uint64_t seed) {
  auto scenario = control::LoadScenarioText(text, file_name);
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  control::SoftwareRunOptions opt;
  opt.seed = seed;
  auto run = control::RunSoftware(*scenario, opt);
  EXPECT_TRUE(run.ok()) << run.status().message();
  return ScenarioRun{std::move(scenario).value(), std::move(run).value()};
}

}  // namespace fe::testing
