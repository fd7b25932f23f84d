// How Jourdain talks to an FMU run in a process of its own (fmi.cosimulation's isolation
// "process"): fmu_process.cpp is Jourdain's side, fmu_host.cpp the other. Internal to
// components/fmi.
//
// One stream socket, the host's file descriptor 3. Each message is a frame: its length
// (8 bytes), then its bytes. The host first says whether it loaded the FMU's binary (a
// status, then an error text). Then Jourdain sends requests (an operation, an instance,
// its arguments) and the host answers each with the FMU's status, the results and what
// the FMU logged during the call. Both ends are this build of Jourdain on one machine:
// numbers travel in the machine's own representation.
#pragma once

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace jourdain::fmi::host {

// The host's end of the socket.
constexpr int kSocket = 3;

enum class Op : std::uint32_t {
  Instantiate = 1,  // name, guid, resource URI -> instance id (0: none)
  Copy,             // instance, name, guid, resource URI -> a new instance in the source's state
  Free,             // instance
  SetupExperiment,  // instance, start time
  EnterInitializationMode,
  ExitInitializationMode,
  Terminate,
  GetReal,  // instance, count n, n value references -> n values
  GetInteger,
  GetBoolean,
  SetReal,  // instance, count n, n value references, n values
  SetInteger,
  SetBoolean,
  SetString,
  DoStep,            // instance, t, h
  GetBooleanStatus,  // instance, kind -> value
  GetRealStatus,
};

// Bytes written, then read back in the same order.
class Message {
 public:
  template <class T>
    requires std::is_trivially_copyable_v<T>
  Message& put(const T& value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
    return *this;
  }
  Message& put(const std::string& text) {
    put<std::uint64_t>(text.size());
    bytes_ += text;
    return *this;
  }
  template <class T>
    requires std::is_trivially_copyable_v<T>
  T get() {
    T value;
    need(sizeof value);
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::string get_string() {
    const auto n = get<std::uint64_t>();
    need(n);
    std::string text = bytes_.substr(at_, n);
    at_ += n;
    return text;
  }
  std::size_t remaining() const { return bytes_.size() - at_; }
  const std::string& bytes() const { return bytes_; }
  std::string& bytes() { return bytes_; }

 private:
  void need(std::uint64_t n) const {
    if (n > bytes_.size() - at_) throw std::runtime_error("a message between Jourdain and the FMU's process is cut short");
  }
  std::string bytes_;
  std::size_t at_ = 0;
};

// Sends a frame whole; false when the other end is gone. MSG_NOSIGNAL: a peer that died
// is an answer, not a SIGPIPE that ends this process.
inline bool send_frame(int socket, const std::string& bytes) {
  const std::uint64_t length = bytes.size();
  std::string frame(reinterpret_cast<const char*>(&length), sizeof length);
  frame += bytes;
  for (std::size_t sent = 0; sent < frame.size();) {
    const ssize_t n = ::send(socket, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace jourdain::fmi::host
