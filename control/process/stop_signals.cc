#include "control/process/stop_signals.h"

#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

namespace fe::control {

StopSignals::StopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  if (pthread_sigmask(SIG_BLOCK, &set, &previous_) != 0) return;
  fd_ = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

StopSignals::~StopSignals() {
  if (fd_ >= 0) close(fd_);
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

bool StopSignals::Requested() {
  if (signal_ != 0 || fd_ < 0) return signal_ != 0;
  signalfd_siginfo info;
  if (read(fd_, &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) {
    signal_ = static_cast<int>(info.ssi_signo);
  }
  return signal_ != 0;
}

}  // namespace fe::control
