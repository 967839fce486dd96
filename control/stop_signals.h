// SIGINT and SIGTERM as a request to stop, without a signal handler or global flag: the signals
// are blocked and read from a signalfd that the real-time loop polls between bursts.
#pragma once

#include <signal.h>

namespace fe::control {

class StopSignals {
 public:
  // Blocks SIGINT and SIGTERM in the calling thread; threads it starts afterwards (the EAL's)
  // inherit the mask, so the signals wait in the signalfd whichever thread they were sent to.
  StopSignals();
  // Restores the previous mask; a signal that arrived but was never read stays pending and is
  // delivered then, so nothing is lost for an outer caller.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  bool ok() const { return fd_ >= 0; }
  // True once SIGINT or SIGTERM has arrived (it stays true). Never blocks.
  bool Requested();
  int signal_number() const { return signal_; }
  // "SIGINT" or "SIGTERM".
  static const char* Name(int signal_number) {
    return signal_number == SIGINT ? "SIGINT" : "SIGTERM";
  }

 private:
  int fd_ = -1;
  int signal_ = 0;
  sigset_t previous_;
};

}  // namespace fe::control
