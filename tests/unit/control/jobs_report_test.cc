// jobs.csv and the job objects of summary.json, from hand-made timings: the columns, an
// incomplete iteration's empty fields, a job name that needs CSV quoting.
#include <gtest/gtest.h>

#include "control/report/jobs_csv.h"
#include "control/report/jobs_json.h"

namespace fe::control {
namespace {

// Two iterations of 1 us and 3 us of which 0.75 us and 1.5 us are compute; the second not done.
JobTiming Timing(bool second_completed) {
  JobTiming job;
  job.job = 0;
  IterationTiming a;
  a.index = 0;
  a.start = Time::FromNs(1000);
  a.end = Time::FromNs(2000);
  a.compute = Time::FromNs(750);
  a.completed = true;
  IterationTiming b = a;
  b.index = 1;
  b.start = a.end;
  b.end = second_completed ? Time::FromNs(5000) : Time::Infinite();
  b.compute = Time::FromNs(1500);
  b.checkpoint = true;
  b.completed = second_completed;
  job.iterations = {a, b};
  job.completed = 1;
  job.time = IterationTimeQuantiles{Time::FromNs(1000), Time::FromNs(1000), Time::FromNs(1000)};
  job.communication_share = 0.25;
  return job;
}

TEST(JobsReportTest, OneRowPerIterationWithTheShareOfExposedCommunication) {
  Workload w;
  w.jobs.push_back(Job{"train, big", "training"});
  const JobTiming jobs[] = {Timing(true)};
  EXPECT_EQ(JobsCsv(w, jobs),
            "job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint\n"
            "\"train, big\",0,1000.000,2000.000,1000.000,750.000,0.250000,false\n"
            "\"train, big\",1,2000.000,5000.000,3000.000,1500.000,0.500000,true\n");
}

TEST(JobsReportTest, AnIncompleteIterationHasNoEndTimeOrShare) {
  Workload w;
  w.jobs.push_back(Job{"train", "training"});
  const JobTiming jobs[] = {Timing(false)};
  EXPECT_EQ(JobsCsv(w, jobs),
            "job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint\n"
            "train,0,1000.000,2000.000,1000.000,750.000,0.250000,false\n"
            "train,1,2000.000,,,1500.000,,true\n");
  nlohmann::ordered_json summary_jobs = {{{"name", "train"}}};
  AddIterationTimes(jobs, &summary_jobs);
  EXPECT_EQ(summary_jobs.dump(),
            "[{\"name\":\"train\",\"iterations\":{\"count\":2,\"completed\":1,"
            "\"time_ns\":{\"p50\":1000.0,\"p99\":1000.0,\"max\":1000.0},"
            "\"communication_share\":0.25}}]");
}

// A run stopped in the first iteration: the second never started, so it has no start either
// (not the never-time printed as a number), and the job has no iteration time or share.
TEST(JobsReportTest, AnIterationThatNeverStartedHasNoStartAndTheJobNoFigures) {
  Workload w;
  w.jobs.push_back(Job{"train", "training"});
  JobTiming job = Timing(false);
  job.iterations[0].end = Time::Infinite();
  job.iterations[0].completed = false;
  job.iterations[1].start = Time::Infinite();
  job.completed = 0;
  job.time.reset();
  job.communication_share.reset();
  const JobTiming jobs[] = {job};
  EXPECT_EQ(JobsCsv(w, jobs),
            "job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint\n"
            "train,0,1000.000,,,750.000,,false\n"
            "train,1,,,,1500.000,,true\n");
  nlohmann::ordered_json summary_jobs = {{{"name", "train"}}};
  AddIterationTimes(jobs, &summary_jobs);
  EXPECT_EQ(summary_jobs.dump(),
            "[{\"name\":\"train\",\"iterations\":{\"count\":2,\"completed\":0,"
            "\"time_ns\":{\"p50\":null,\"p99\":null,\"max\":null},"
            "\"communication_share\":null}}]");
}

}  // namespace
}  // namespace fe::control
