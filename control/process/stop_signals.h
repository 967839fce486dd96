// SIGINT, SIGTERM and SIGHUP as a request to stop, without a signal handler or global flag: the
// signals are blocked and read from a signalfd that the loops poll between slices. SIGHUP is what
// a dropped SSH session or a closed terminal sends: a run ends as on Ctrl-C, with its outputs.
#pragma once

#include <signal.h>

namespace fe::control {

class StopSignals {
 public:
  // Blocks SIGINT, SIGTERM and SIGHUP in the calling thread; threads it starts afterwards (the
  // EAL's) inherit the mask, so the signals wait in the signalfd whichever thread they were sent
  // to.
  StopSignals();
  // Restores the previous mask; a signal that arrived but was never read stays pending and is
  // delivered then, so nothing is lost for an outer caller.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  bool ok() const { return fd_ >= 0; }
  // True once one of them has arrived (it stays true). Never blocks.
  bool Requested();
  int signal_number() const { return signal_; }
  // "SIGINT", "SIGTERM" or "SIGHUP".
  static const char* Name(int signal_number) {
    switch (signal_number) {
      case SIGINT:
        return "SIGINT";
      case SIGHUP:
        return "SIGHUP";
      default:
        return "SIGTERM";
    }
  }

 private:
  int fd_ = -1;
  int signal_ = 0;
  sigset_t previous_;
};

}  // namespace fe::control
